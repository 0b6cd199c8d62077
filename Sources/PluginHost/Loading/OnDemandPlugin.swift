import PluginBoundary
import Synchronization

/// A plugin file that a listing says provides some symbols, loaded the first
/// time one of them is fetched, and at most once.
///
/// The listing (the registry cache) only says which file to load. Loading
/// checks the file as any load does (trust rules, lock digest on the very
/// descriptor that is loaded) and also that it is still the file the
/// listing described; one that changed is refused, never loaded on the
/// listing's word.
final class OnDemandPlugin: Sendable {
    /// The plugin file, as found.
    let path: String
    /// What the listing knows of it.
    let identity: PluginIdentity
    /// Where its code runs.
    let placement: Placement
    private let fileIdentity: FileIdentity?
    private let services: HostServices
    private let trust: PluginTrust
    private let isolation: IsolationOptions
    private let warnedAboutSandbox: OnceFlag
    /// Its worker, when the listing started one for the fetch (``WorkerPrestart``).
    private let prestart: WorkerPrestart?

    private let loading = Mutex<Task<Result<[PluginFetcher], PluginLoadError>, Never>?>(nil)
    private let worker = Mutex<WorkerConnection?>(nil)

    init(
        path: String, identity: PluginIdentity, placement: Placement, fileIdentity: FileIdentity?, services: HostServices, trust: PluginTrust,
        isolation: IsolationOptions, warnedAboutSandbox: OnceFlag, prestart: WorkerPrestart? = nil
    ) {
        self.path = path
        self.identity = identity
        self.placement = placement
        self.fileIdentity = fileIdentity
        self.services = services
        self.trust = trust
        self.isolation = isolation
        self.warnedAboutSandbox = warnedAboutSandbox
        self.prestart = prestart
    }

    /// The plugin's fetchers, loading it on the first call; later and
    /// concurrent calls share that one load.
    func fetchers() async -> Result<[PluginFetcher], PluginLoadError> {
        let task = loading.withLock { loading in
            if let loading { return loading }
            let task = Task { await load() }
            loading = task
            return task
        }
        return await task.value
    }

    /// The program's names for its settings, for the fixes a failed load suggests.
    var names: SettingNames { services.names }

    /// Whether it runs in a worker started by this run.
    var hasWorker: Bool { worker.withLock { $0 != nil } }

    /// Stops its worker, if it has one.
    func shutdown() async {
        if let worker = worker.withLock({ $0 }) { await worker.shutdown() }
    }

    private func load() async -> Result<[PluginFetcher], PluginLoadError> {
        let started = ContinuousClock.now
        defer { services.logger.debug("\(path): loaded \(placement.place.rawValue) on demand in \((ContinuousClock.now - started).humanReadable)") }
        switch placement.place {
        case .isolated:
            let voucher = placement.voucher
            var loader = IsolatedPluginLoader(services: services, trust: trust, options: isolation)
            loader.warnedAboutSandbox = warnedAboutSandbox
            loader.voucher = { _ in voucher }
            let (outcome, _, worker) =
                if let started = prestart?.take() {
                    await loader.finish(path, started: await started.value)
                } else {
                    await loader.loadOne(path, expecting: fileIdentity)
                }
            self.worker.withLock { $0 = worker }
            return outcome.map(\.1)
        case .inProcess:
            let voucher = placement.voucher
            let loader = PluginLoader(services: services, trust: trust, voucher: { _ in voucher })
            let (path, fileIdentity) = (path, fileIdentity)
            // dlopen runs the plugin's constructors, which may block: never on a thread the host needs.
            return await withCheckedContinuation { continuation in
                do throws(SystemError) {
                    try PluginCallThread.start {
                        continuation.resume(returning: loader.loadOne(path, expecting: fileIdentity).map(\.1))
                    }
                } catch {
                    continuation.resume(returning: .failure(PluginLoadError(.notStarted(error))))
                }
            }
        }
    }
}
