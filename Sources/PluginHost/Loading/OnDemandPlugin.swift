import PluginBoundary
import Synchronization

/// A plugin file that a listing says provides some symbols, loaded the first
/// time one of them is fetched, and at most once.
///
/// The listing (the scan cache) only says which file to load. Loading
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
    /// The run's load, which loads it where ``placement`` says.
    private let run: PluginLoad
    /// Its worker, when the listing started one for the fetch (``WorkerPrestart``).
    private let prestart: WorkerPrestart?

    /// The load in progress or done, the worker it started, and the calls using it.
    private struct State {
        var loading: Task<Result<[PluginFetcher], PluginLoadError>, Never>?
        var worker: WorkerConnection?
        var calls = 0
    }

    private let state = Mutex(State())

    init(path: String, identity: PluginIdentity, placement: Placement, fileIdentity: FileIdentity?, run: PluginLoad, prestart: WorkerPrestart? = nil) {
        self.path = path
        self.identity = identity
        self.placement = placement
        self.fileIdentity = fileIdentity
        self.run = run
        self.prestart = prestart
    }

    /// Calls `body` with the plugin's fetchers, loading it on the first
    /// call; concurrent calls share that one load.
    ///
    /// A worker of a plugin nobody vouched for holds one of the run's
    /// places under the memory budget (``WorkerSlots``): once no call uses
    /// it, it is stopped and its place freed, and a later call loads the
    /// plugin again. Fifty strangers asked at once then take turns within
    /// the budget instead of each keeping a worker to the end of the run.
    func withFetchers<T: Sendable>(_ body: (Result<[PluginFetcher], PluginLoadError>) async -> T) async -> T {
        let task = state.withLock { state in
            state.calls += 1
            if let loading = state.loading { return loading }
            let task = Task { await load() }
            state.loading = task
            return task
        }
        let answer = await body(await task.value)
        let oneShot = placement.place == .isolated && placement.voucher == .nobody
        let idle = state.withLock { state -> WorkerConnection? in
            state.calls -= 1
            guard oneShot, state.calls == 0, let worker = state.worker else { return nil }
            state.worker = nil
            state.loading = nil
            return worker
        }
        if let idle { await idle.shutdown() }
        return answer
    }

    /// The program's names for its settings, for the fixes a failed load suggests.
    var names: SettingNames { run.services.names }

    /// Whether it runs in a worker started by this run.
    var hasWorker: Bool { state.withLock { $0.worker != nil } }

    /// Stops its worker, if it has one.
    func shutdown() async {
        if let worker = state.withLock({ $0.worker }) { await worker.shutdown() }
    }

    private func load() async -> Result<[PluginFetcher], PluginLoadError> {
        let started = ContinuousClock.now
        defer { run.services.logger.debug("\(path): loaded \(placement.place.rawValue) on demand in \((ContinuousClock.now - started).humanReadable)") }
        let loaded = await run.load(path, placement: placement, expecting: fileIdentity, started: prestart?.take())
        if let worker = loaded.worker { state.withLock { $0.worker = worker } }
        return loaded.outcome.map(\.1)
    }
}
