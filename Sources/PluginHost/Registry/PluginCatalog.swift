import FoundationEssentials
import Logging
import WorkerProtocol

/// Whether and how a run uses the registry cache.
package enum RegistryCacheUse: Sendable, Equatable {
    /// Neither read nor write it: load every plugin, as `--no-cache` asks.
    case off
    /// Read it from `cacheHome`/patchbay, scan what is new or changed, and
    /// write it back.
    case use(cacheHome: String)
    /// Scan every plugin again and write it, as `host rescan` asks.
    case rebuild(cacheHome: String)

    /// `$XDG_CACHE_HOME`, or `$HOME/.cache`, as the XDG base directory
    /// specification defines the user's cache directory; nil without either.
    package static func cacheHome(xdgCacheHome: String?, home: String?) -> String? {
        RegistryCacheStore.cacheHome(xdgCacheHome: xdgCacheHome, home: home)
    }
}

/// How a run learns what the plugins provide, and where each one runs.
package struct LoadOptions: Sendable {
    /// Who decides where each plugin runs.
    package var policy: IsolationPolicy
    /// How workers run: the scanners, and plugins the policy isolates.
    package var isolation: IsolationOptions
    /// Whether the registry cache is read and written.
    package var cache: RegistryCacheUse
    /// Told how a scan of plugin files progresses, if one is needed.
    package var progress: ScanProgress.Handler?

    /// Creates the options.
    package init(policy: IsolationPolicy = .byTrust, isolation: IsolationOptions = IsolationOptions(), cache: RegistryCacheUse) {
        self.policy = policy
        self.isolation = isolation
        self.cache = cache
    }
}

/// What `host rescan` did.
package struct RescanReport: Sendable, Equatable {
    /// The cache file written.
    package let cachePath: String
    /// How many plugin files were scanned.
    package let scanned: Int
    /// How many of them loaded in their scan.
    package let loaded: Int
    /// Why the cache could not be written, if it could not.
    package let writeError: String?
}

extension Host {
    /// The plugins as the registry cache describes them, scanning in
    /// sandboxed workers only the files that are new or changed since their
    /// last scan; no plugin is loaded. A fetch loads only the plugins that
    /// provide the symbols asked for (``LoadedPlugins/fetch(_:currency:timeout:)``),
    /// each in its ``Placement``.
    func catalog(_ options: LoadOptions, cacheHome: String, rebuild: Bool) async -> (LoadedPlugins, RescanReport) {
        await carryOut(plan(options, cacheHome: cacheHome, rebuild: rebuild), options: options)
    }

    /// ``catalog(_:cacheHome:rebuild:)`` as far as it goes without a task:
    /// the plugins when nothing needs a scan, else the scan still to do,
    /// which starts from what was read here rather than reading it again.
    func catalogWithoutScanning(_ options: LoadOptions, cacheHome: String) -> PreparedLoad {
        let plan = plan(options, cacheHome: cacheHome, rebuild: false)
        guard plan.needingScan.isEmpty else {
            return .needsTask(PendingLoad { await carryOut(plan, options: options).0 })
        }
        return .loaded(finish(plan, scanned: [], options: options).0)
    }

    /// Scans what the plan says needs it, then lists.
    private func carryOut(_ plan: Plan, options: LoadOptions) async -> (LoadedPlugins, RescanReport) {
        if options.isolation.judgesSandbox && options.policy.mayIsolate {
            // Tried on the spawn thread now, so that listing (on this task) finds the answer waiting.
            _ = await SandboxProbe.report(skipping: options.isolation.skippedSandboxLayers)
        }
        var scanner = PluginScanner(services: services, trust: trust, options: options.isolation)
        scanner.progress = options.progress
        scanner.warnedAboutSandbox = plan.warnedAboutSandbox
        return finish(plan, scanned: await scanner.scan(plan.needingScan, locks: plan.locks), options: options)
    }

    /// One plugin file as this run's plan knows it.
    private enum Item: Sendable {
        /// Described by the cache.
        case cached(PluginDiscovery.Candidate, RegistryCache.Entry)
        /// New or changed: to be scanned.
        case needsScan(PluginDiscovery.Candidate)
        /// Refused by the host's own checks before any of its code ran.
        case refused(PluginDiscovery.Candidate, PluginLoader.Failure)
    }

    /// One plugin file once scanned, if it needed a scan.
    private enum Listed {
        /// What it provides, from the cache or, when `scanned`, from this run's scan.
        case described(PluginDiscovery.Candidate, RegistryCache.Entry, scanned: Bool)
        /// Refused by the host's own checks before any of its code ran.
        case refused(PluginDiscovery.Candidate, PluginLoader.Failure)
    }

    private struct Plan: Sendable {
        let store: RegistryCacheStore
        let previous: RegistryCache?
        /// Why the cache file there was not used, when it was refused: said
        /// once, when the plan is carried out.
        let refusal: RegistryCacheStore.Refusal?
        let locks: LockFileCache
        /// Set by the first worker of the run, scanning or loading, whose sandbox is partial: one warning per run.
        let warnedAboutSandbox = OnceFlag()
        var items: [Item]
        var needingScan: [PluginDiscovery.Candidate] {
            items.compactMap { if case .needsScan(let candidate) = $0 { candidate } else { nil } }
        }
    }

    private func plan(_ options: LoadOptions, cacheHome: String, rebuild: Bool) -> Plan {
        let candidates = pluginCandidates()
        // Not keyed by the configuration: a plugin registers the same fetchers whatever API it is pointed at,
        // and switching --api-base-url must not rescan every plugin.
        let store = RegistryCacheStore(cacheHome: cacheHome, searchPath: discovery.locations.map(\.directory))
        var previous: RegistryCache?
        var refusal: RegistryCacheStore.Refusal?
        if !rebuild {
            switch store.read(host: HostIdentity.current, abiVersion: PluginABIVersion.current) {
            case .success(let cache): previous = cache
            case .failure(.missing): break
            case .failure(let reason): refusal = reason
            }
        }
        let entries = Dictionary((previous?.entries ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let locks = LockFileCache(trust: trust)
        let items = candidates.map { candidate -> Item in
            if let identity = candidate.identity, let entry = entries[candidate.path], entry.identity == identity {
                // A lock file or a vouch that appeared since the scan needs the digest the scan did not take.
                if entry.sha256 != nil || !locks.lock(for: candidate.path).needsDigest { return .cached(candidate, entry) }
            }
            // The host's own checks are cheap and run no plugin code: only a file that passes them needs a worker.
            do throws(PluginLoadError) {
                try PluginFile.open(candidate.path, rules: trust.rules, lock: locks.lock(for: candidate.path)).closeUnloaded()
                return .needsScan(candidate)
            } catch {
                return .refused(candidate, PluginLoader.Failure(error: error))
            }
        }
        return Plan(store: store, previous: previous, refusal: refusal, locks: locks, items: items)
    }

    private func finish(_ plan: Plan, scanned: [PluginScanner.Outcome], options: LoadOptions) -> (LoadedPlugins, RescanReport) {
        if let refusal = plan.refusal {
            services.logger.warning("ignoring the plugin cache \(plan.store.path): \(refusal); rebuilding it")
        }
        var outcomes = scanned.makeIterator()
        let items = plan.items.map { item -> Listed in
            switch item {
            case .cached(let candidate, let entry): return .described(candidate, entry, scanned: false)
            case .refused(let candidate, let failure): return .refused(candidate, failure)
            case .needsScan(let candidate):
                // The scanner answers once per file it was given, in order.
                switch outcomes.next()! {
                case .scanned(let entry): return .described(candidate, entry, scanned: true)
                case .refused(let failure): return .refused(candidate, failure)
                }
            }
        }

        let cache = RegistryCache(
            host: HostIdentity.current, abiVersion: PluginABIVersion.current, searchPath: discovery.locations.map(\.directory),
            entries: items.compactMap { if case .described(_, let entry, _) = $0 { entry } else { nil } })
        var writeError: String?
        if cache != plan.previous {
            do throws(RegistryCacheStore.WriteError) {
                try plan.store.write(cache)
            } catch {
                writeError = error.description
                services.logger.warning("\(error); the next run scans the plugins again")
            }
        }
        let scannedEntries = items.compactMap { if case .described(_, let entry, scanned: true) = $0 { entry } else { nil } }
        services.logger.debug(
            "plugin cache \(plan.store.path): \(items.count - scannedEntries.count) files described by it, \(scannedEntries.count) scanned")

        let loaded = compose(items, locks: plan.locks, options: options, warned: plan.warnedAboutSandbox)
        let report = RescanReport(
            cachePath: plan.store.path, scanned: scannedEntries.count, loaded: scannedEntries.count { $0.status == .loaded }, writeError: writeError)
        return (loaded, report)
    }

    /// The reports and on-demand fetchers of the listed files, in search
    /// order, with the rules loading in that order would apply: the first
    /// file to register a symbol keeps it. The host's checks that depend on
    /// more than the file (its directory, the lock file) are made again here.
    private func compose(_ items: [Listed], locks: LockFileCache, options: LoadOptions, warned: OnceFlag) -> LoadedPlugins {
        // Two passes: every on-demand plugin shares the finished ownership.
        let ownership = SymbolOwnership()
        var outcomes: [(Result<(PluginReport, [RegistryCache.Fetcher]), PluginLoader.Failure>, PluginDiscovery.Candidate, RegistryCache.Entry?, scanned: Bool)] = []
        var checkedDirectories = Set<String>()
        for item in items {
            switch item {
            case .refused(let candidate, let failure):
                outcomes.append((.failure(failure), candidate, nil, false))
            case .described(let candidate, let entry, let scanned):
                let outcome = Result { () throws(PluginLoader.Failure) in
                    try listing(entry, candidate: candidate, ownership: ownership, locks: locks, checkedDirectories: &checkedDirectories)
                }
                outcomes.append((outcome, candidate, entry, scanned))
            }
        }

        var result = PluginLoader.Outcome()
        var onDemand: [OnDemandPlugin] = []
        let rule = PlacementRule(policy: options.policy, trust: trust)
        // This run's sandbox, not the one a scan recorded: judged once, when
        // the first isolated plugin is listed, if the run shows or requires it.
        var sandboxNow: SandboxReport?
        for (listed, candidate, entry, scanned) in outcomes {
            let placement = rule.placement(of: candidate.path, origin: candidate.origin, lock: locks.lock(for: candidate.path))
            var outcome = listed
            if placement.place == .isolated && options.isolation.judgesSandbox {
                let sandbox = sandboxNow ?? SandboxProbe.reportWaiting(skipping: options.isolation.skippedSandboxLayers)
                sandboxNow = sandbox
                if options.isolation.requireFullSandbox && sandbox.level != .full, case .success = outcome {
                    outcome = .failure(PluginLoader.Failure(error: PluginLoadError(.sandboxRequired(sandbox)), name: entry?.name, version: entry?.version, metadata: entry?.metadata))
                }
            }
            var fetchers: [PluginFetcher] = []
            if case .success(let (report, listed)) = outcome, let entry {
                let plugin = OnDemandPlugin(
                    path: candidate.path, identity: PluginIdentity(name: report.name, version: report.version ?? "", path: candidate.path), placement: placement,
                    fileIdentity: entry.identity, services: services, trust: trust, isolation: options.isolation, warnedAboutSandbox: warned,
                    ownership: ownership)
                onDemand.append(plugin)
                fetchers = listed.map { PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, plugin: plugin) }
            }
            result.record(outcome.map { ($0.0, fetchers) }, for: candidate.path, services: services)
            let index = result.reports.count - 1
            result.reports[index].placement = placement
            result.reports[index].cached = entry != nil && !scanned
            if placement.place == .isolated, let sandbox = sandboxNow ?? entry?.sandbox { result.reports[index].sandbox = sandbox }
            result.reports[index].allowedURLs = services.allowedURLs
        }
        noteLockFilesThatOnlyPin(rule)
        return LoadedPlugins(reports: result.reports, registry: FetcherRegistry(result.fetchers), workers: [], onDemand: onDemand, services: services)
    }

    /// One listed file's report and the fetchers it keeps, or why it fails now.
    private func listing(
        _ entry: RegistryCache.Entry, candidate: PluginDiscovery.Candidate, ownership: SymbolOwnership, locks: LockFileCache,
        checkedDirectories: inout Set<String>
    ) throws(PluginLoader.Failure) -> (PluginReport, [RegistryCache.Fetcher]) {
        let path = candidate.path
        func fail(_ error: PluginLoadError) -> PluginLoader.Failure {
            PluginLoader.Failure(error: error, name: entry.status == .loaded ? entry.name : nil, version: entry.version, metadata: entry.metadata)
        }
        do throws(PluginLoadError) {
            try PluginFile.checkPlacement(of: path, isSymbolicLink: candidate.isSymbolicLink, rules: trust.rules, checked: &checkedDirectories)
            try locks.check(path, digest: entry.sha256)
        } catch {
            throw fail(error)
        }
        guard entry.status == .loaded, let version = entry.version else {
            var failure = fail(PluginLoadError(.failedScan(entry.error ?? "failed")))
            failure.name = entry.name
            throw failure
        }
        let settled = ownership.settle(entry.fetchers, symbol: \.symbol, for: path)
        if let failure = settled.failure(after: [], refused: []) { throw fail(failure) }
        var report = PluginReport(
            name: entry.name, version: version, path: path, status: .loaded, fetchers: settled.kept.map(\.symbol), error: nil,
            warnings: entry.warnings + settled.duplicates.map(Settlement<RegistryCache.Fetcher>.warning))
        report.metadata = entry.metadata
        return (report, settled.kept)
    }

    /// The files discovery finds, with a warning line when there are none.
    func pluginCandidates() -> [PluginDiscovery.Candidate] {
        let candidates = discovery.candidates { services.logger.warning("\($0)") }
        if candidates.isEmpty { warnNoPluginFiles() }
        return candidates
    }
}

extension LockFileCache {
    /// The lock-file and trust-store check of loading, made on a digest taken earlier from
    /// the same, unchanged file.
    func check(_ pluginPath: String, digest: String?) throws(PluginLoadError) {
        _ = try lock(for: pluginPath).verify(pluginPath) { () throws(PluginLoadError) in
            // A scan takes the digest whenever a lock or a vouch applies; without one the file is scanned again.
            guard let digest else { throw PluginLoadError(.changedSinceListed) }
            return digest
        }
    }
}
