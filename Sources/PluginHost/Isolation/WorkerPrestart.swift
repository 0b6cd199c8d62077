import Synchronization

/// A worker started for a plugin before the fetch that needs it asks, so
/// that its start (exec, the Swift runtime, the sandbox: about 3 ms)
/// overlaps the rest of the listing instead of following it.
///
/// It is started exactly as ``OnDemandPlugin`` starts one: the host opens
/// and checks the file (trust rules, lock file, ELF headers, and that it is
/// still the file the listing described) and starts a confined worker with
/// the descriptor. No plugin code runs until the fetch sends `load`; a
/// worker nobody takes is shut down with the run's others, never loaded.
final class WorkerPrestart: Sendable {
    /// The plugin file it was started for.
    let path: String
    private let started: Mutex<Task<Result<WorkerConnection, PluginLoadError>, Never>?>

    private let services: HostServices

    /// Starts the worker for `path`, expected to be the file `identity`
    /// describes and checked against `locks`, on the spawn thread; returns at once.
    init(path: String, identity: FileIdentity, locks: LockFileCache, loader: IsolatedPluginLoader) {
        self.path = path
        services = loader.services
        started = Mutex(Task { await loader.start(path, locks: locks, expecting: identity) })
        services.logger.debug("\(path): worker started while the listing is composed")
    }

    /// The start, to the first caller only: the plugin's load, or the
    /// shutdown of an unused worker.
    func take() -> Task<Result<WorkerConnection, PluginLoadError>, Never>? {
        started.withLock { started in
            defer { started = nil }
            return started
        }
    }

    /// Stops the worker if nothing took it.
    func shutdownUnused() async {
        guard let start = take(), case .success(let worker) = await start.value else { return }
        await worker.shutdown()
        services.logger.debug("\(path): its worker was not used, and is stopped")
    }
}
