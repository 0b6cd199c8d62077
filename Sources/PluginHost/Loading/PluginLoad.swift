import PluginBoundary
import WorkerProtocol

/// This run's load: the services every plugin gets, the trust rules and
/// trust store, where each plugin runs (one ``PlacementRule``), the lock
/// files read once for the run, and how workers run (their caps and
/// sandbox). ``Host`` makes it once per run; every way a plugin is loaded,
/// scanned or inspected asks it, so no setting is passed to a loader one
/// by one, and no two paths place or pin a plugin differently.
final class PluginLoad: Sendable {
    /// What every plugin is offered.
    let services: HostServices
    /// The checks a plugin file passes before it is loaded.
    let trust: PluginTrust
    /// How workers run: the scanners, and plugins the rule isolates.
    let isolation: IsolationOptions
    /// Where each plugin runs, and who vouched for it.
    let rule: PlacementRule
    /// Each lock file, read once for the run.
    let locks: LockFileCache
    /// Set by the run's first worker whose sandbox is partial: one warning per run.
    let warnedAboutSandbox = OnceFlag()

    /// This run's load, for plugins placed by `policy`.
    init(services: HostServices, trust: PluginTrust, policy: IsolationPolicy, isolation: IsolationOptions) {
        self.services = services
        self.trust = trust
        self.isolation = isolation
        rule = PlacementRule(policy: policy, trust: trust)
        locks = LockFileCache(trust: trust)
    }

    /// Where `candidate` runs, and who vouched for it.
    /// - Parameter notingPins: Whether a lock file that only pins it is
    ///   noted for ``noteLockFilesThatOnlyPin()``: not by a look ahead of the listing.
    func placement(of candidate: PluginDiscovery.Candidate, notingPins: Bool = true) -> Placement {
        rule.placement(of: candidate.path, origin: candidate.origin, lock: locks.lock(for: candidate.path), notingPins: notingPins)
    }

    /// Who vouched for each file of `candidates`, by their placements.
    static func vouchers(_ candidates: [PluginDiscovery.Candidate], _ placements: [Placement]) -> [String: Placement.Voucher] {
        Dictionary(zip(candidates.map(\.path), placements.map(\.voucher)), uniquingKeysWith: { first, _ in first })
    }

    /// What loading one plugin gave: the report and fetchers or why it
    /// failed, the worker's sandbox when it ran isolated, and the worker
    /// when its plugin loaded (the caller shuts it down).
    typealias Loaded = (outcome: Result<(PluginReport, [PluginFetcher]), PluginLoadError>, sandbox: SandboxReport, worker: WorkerConnection?)

    /// Loads one plugin file where `placement` puts it, checking first
    /// that it is still the file a listing described (`identity`), or
    /// finishing the worker a listing `started` for it. Logs nothing: the
    /// caller reports the outcome.
    func load(
        _ path: String, placement: Placement, expecting identity: FileIdentity?,
        started: Task<Result<WorkerConnection, PluginLoadError>, Never>? = nil
    ) async -> Loaded {
        let voucher = placement.voucher
        switch placement.place {
        case .isolated:
            let loader = isolatedLoader(vouchers: { _ in voucher }, takesSlots: true)
            if let started { return await loader.finish(path, started: await started.value) }
            return await loader.loadOne(path, locks: locks, expecting: identity)
        case .inProcess:
            let (loader, locks) = (PluginLoader(services: services, trust: trust, voucher: { _ in voucher }), locks)
            // dlopen runs the plugin's constructors, which may block: never on a thread the host needs.
            let outcome = await withCheckedContinuation { continuation in
                do throws(SystemError) {
                    try PluginCallThread.start {
                        continuation.resume(returning: loader.loadOne(path, locks: locks, expecting: identity))
                    }
                } catch {
                    continuation.resume(returning: .failure(PluginLoadError(.notStarted(error))))
                }
            }
            return (outcome, .unconfined, nil)
        }
    }

    /// Loads `files` in this process, in order, opening all before any
    /// registers (``PluginLoader/load(_:)``).
    func loadInProcess(_ files: [String], vouchers: [String: Placement.Voucher]) -> PluginLoader.Outcome {
        PluginLoader(services: services, trust: trust, voucher: { vouchers[$0] ?? .nobody }).load(files, locks: locks)
    }

    /// A loader of plugins in workers started as this run starts them.
    /// - Parameters:
    ///   - vouchers: Who vouched for the plugin at a path.
    ///   - takesSlots: Whether a stranger's worker waits for a place under the memory budget.
    func isolatedLoader(vouchers: @escaping @Sendable (String) -> Placement.Voucher, takesSlots: Bool = false, quiet: Bool = false) -> IsolatedPluginLoader {
        var loader = IsolatedPluginLoader(services: services, trust: trust, options: isolation)
        loader.warnedAboutSandbox = warnedAboutSandbox
        loader.voucher = vouchers
        loader.takesSlots = takesSlots
        loader.quiet = quiet
        return loader
    }

    /// A scanner of plugin files for the scan cache, its workers started as this run starts them.
    func scanner(progress: ScanProgress.Handler?) -> PluginScanner {
        var scanner = PluginScanner(run: self)
        scanner.progress = progress
        return scanner
    }

    /// Starts the worker of the listed `candidate`, expected to be the file
    /// `identity` describes, before the fetch that loads it asks.
    func prestart(_ candidate: PluginDiscovery.Candidate, identity: FileIdentity, placement: Placement) -> WorkerPrestart {
        let voucher = placement.voucher
        return WorkerPrestart(path: candidate.path, identity: identity, locks: locks, loader: isolatedLoader(vouchers: { _ in voucher }, takesSlots: true))
    }

    /// One line per lock file that pinned a plugin nobody vouched for: it
    /// once ran them in-process, and now only pins them.
    func noteLockFilesThatOnlyPin() {
        for lock in rule.lockFilesThatOnlyPin {
            services.logger.warning("\(PlacementRule.onlyPinsNotice(lock, naming: services.names))")
        }
    }
}
