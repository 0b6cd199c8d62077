import Logging
import WorkerProtocol

/// What the plugin files provide, as the scan cache describes them and
/// scans in sandboxed workers fill in: the reports and the fetcher rows of a
/// run that loads no plugin until a fetch calls one.
///
/// Only files that are new or changed since their last scan are scanned. A
/// fetch then loads only the plugins that provide the symbols asked for
/// (``LoadedPlugins/fetch(_:currency:timeout:)``), each in its ``Placement``.
/// A listing builds nothing per plugin beyond its row: no loader, no
/// fetcher, no container registration (see ``FetcherRegistry``).
struct PluginCatalog: Sendable {
    /// This run's load: where plugins run, their locks, and how workers run.
    let run: PluginLoad
    /// The plugin files found, in search order.
    let candidates: [PluginDiscovery.Candidate]
    /// The directories searched, which the cache file records.
    let searchPath: [String]
    /// What the run fetches, and how long its scans may take.
    let options: LoadOptions
    /// Where the cache file lives: `cacheHome`/patchbay.
    let cacheHome: String

    /// The plugins, scanning what the cache lacks; with `rebuild`, every
    /// plugin is scanned again, as `host rescan` asks.
    func load(rebuild: Bool) async -> (LoadedPlugins, RescanReport) {
        await carryOut(plan(rebuild: rebuild), rebuild: rebuild)
    }

    /// ``load(rebuild:)`` as far as it goes without a task: the plugins when
    /// nothing needs a scan, else the scan still to do, which starts from
    /// what was read here rather than reading it again.
    func loadWithoutScanning() -> PreparedLoad {
        let plan = plan(rebuild: false)
        guard plan.needingScan.isEmpty else {
            return .needsTask(PendingLoad { await carryOut(plan).0 })
        }
        return .loaded(finish(plan, scanned: [], writer: nil).0)
    }

    private var services: HostServices { run.services }
    private var trust: PluginTrust { run.trust }

    /// Scans what the plan says needs it, then lists.
    ///
    /// Files someone vouched for are scanned in full. Files nobody vouched
    /// for are scanned within ``LoadOptions/strangerScanTime``: beside the
    /// fetch when the listing already knows every symbol it fetches, else
    /// before the listing; what is left is one warning, and the next run's.
    /// Each scan is written to the cache as it finishes.
    private func carryOut(_ plan: Plan, rebuild: Bool = false) async -> (LoadedPlugins, RescanReport) {
        if options.isolation.judgesSandbox && options.policy.mayIsolate {
            // Tried on the spawn thread now, so that listing (on this task) finds the answer waiting.
            _ = await SandboxProbe.report(skipping: options.isolation.skippedSandboxLayers)
        }
        let scanner = run.scanner(progress: options.progress)
        let writer = writer(for: plan)
        // Where each file to scan is among the plan's items, and whether someone vouched for it.
        let toScan = plan.items.indices.compactMap { index -> (item: Int, candidate: PluginDiscovery.Candidate, vouched: Bool)? in
            if case .needsScan(let candidate, let vouched) = plan.items[index] { (index, candidate, vouched) } else { nil }
        }
        let vouched = toScan.filter(\.vouched)
        let strangers = toScan.filter { !$0.vouched }
        var outcomes = [PluginScanner.Outcome?](repeating: nil, count: toScan.count)
        let position = Dictionary(uniqueKeysWithValues: toScan.indices.map { (toScan[$0].item, $0) })
        func record(_ files: [(item: Int, candidate: PluginDiscovery.Candidate, vouched: Bool)]) -> @Sendable (Int, PluginScanner.Outcome) -> Void {
            let items = files.map(\.item)
            return { index, outcome in
                if case .scanned(let entry) = outcome { writer.record(entry, at: items[index]) }
            }
        }
        for (file, outcome) in zip(vouched, await scanner.scan(vouched.map(\.candidate), locks: run.locks, finished: record(vouched))) {
            outcomes[position[file.item]!] = outcome
        }
        let time = options.strangerScanTime ?? options.isolation.loadTimeout
        if !rebuild, !strangers.isEmpty, knowsEverySymbolFetched(plan, scanned: outcomes) {
            var (loaded, report) = finish(plan, scanned: outcomes, writer: writer)
            let deadline = ContinuousClock.now + time
            let (scanner, locks, logger, names) = (scanner, run.locks, services.logger, services.names)
            let finished = record(strangers)
            let holders = loaded.reports.compactMap { report -> NameClaims.Claim? in
                guard report.status == .loaded, let voucher = report.placement?.voucher, voucher != .nobody else { return nil }
                return NameClaims.Claim(path: report.path, name: report.name, voucher: voucher)
            }
            loaded.background = BackgroundScan {
                let candidates = strangers.map(\.candidate)
                let scanned = await scanner.scan(candidates, locks: locks, limit: ScanLimit(startBy: deadline, cutAt: deadline), finished: finished)
                Self.noteNameThefts(zip(candidates, scanned).map { ($0.path, $1) }, holders: holders, logger: logger, names: names)
                Self.noteUnscanned(scanned.count { $0 == nil }, logger: logger, names: names)
            }
            return (loaded, report)
        }
        // Waited on: bounded by the load timeout, never by a fetch's --timeout, which would leave its own symbols unknown.
        let limit = rebuild ? ScanLimit.none : ScanLimit(startBy: ContinuousClock.now + options.isolation.loadTimeout)
        let scanned = await scanner.scan(strangers.map(\.candidate), locks: run.locks, limit: limit, finished: record(strangers))
        for (file, outcome) in zip(strangers, scanned) {
            outcomes[position[file.item]!] = outcome
        }
        Self.noteUnscanned(scanned.count { $0 == nil }, logger: services.logger, names: services.names)
        return finish(plan, scanned: outcomes, writer: writer)
    }

    /// One line per stranger a background scan found declaring the name of
    /// a plugin this run's listing holds as vouched (``NameClaims``): the
    /// line the next run's listing refuses it with, said in the run that
    /// found it.
    private static func noteNameThefts(
        _ scanned: [(path: String, outcome: PluginScanner.Outcome?)], holders: [NameClaims.Claim], logger: Logger, names: SettingNames
    ) {
        guard !holders.isEmpty else { return }
        let claims = scanned.compactMap { path, outcome -> NameClaims.Claim? in
            guard case .scanned(let entry)? = outcome, entry.status == .loaded else { return nil }
            return NameClaims.Claim(path: path, name: entry.name, voucher: .nobody)
        }
        let thefts = NameClaims.thefts(holders + claims)
        for claim in claims {
            guard let failure = thefts[claim.path] else { continue }
            logger.warning("skipping \(claim.path): \(failure.message(naming: names))")
        }
    }

    /// One line for files a run's limit left unscanned.
    private static func noteUnscanned(_ count: Int, logger: Logger, names: SettingNames) {
        guard count > 0 else { return }
        let files = count == 1 ? "1 new plugin file nobody vouched for is" : "\(count) new plugin files nobody vouched for are"
        logger.warning("\(files) not scanned yet; the next run goes on scanning them, or \(names.rescan) to scan them all now")
    }

    /// Whether every symbol the run fetches is provided by a file the
    /// listing knows without the scans of files nobody vouched for.
    private func knowsEverySymbolFetched(_ plan: Plan, scanned: [PluginScanner.Outcome?]) -> Bool {
        guard !options.fetching.isEmpty else { return false }
        var known = Set<String>()
        let previous = plan.previous?.entries ?? []
        for item in plan.items {
            if case .cached(_, let index) = item, previous[index].status == .loaded { known.formUnion(previous[index].fetchers.map(\.symbol)) }
        }
        for case .scanned(let entry)? in scanned where entry.status == .loaded {
            known.formUnion(entry.fetchers.map(\.symbol))
        }
        return options.fetching.allSatisfy { known.contains(FetcherSymbol.normalized($0)) }
    }

    /// The writer of this run's cache, holding what the cache already describes.
    private func writer(for plan: Plan) -> ScanCacheWriter {
        let previous = plan.previous?.entries ?? []
        let lines = plan.previous?.readLines ?? []
        let slots = plan.items.map { item -> ScanCacheWriter.Slot? in
            guard case .cached(_, let index) = item else { return nil }
            return ScanCacheWriter.Slot(entry: previous[index], line: index < lines.count ? lines[index] : nil)
        }
        return ScanCacheWriter(store: plan.store, searchPath: searchPath, slots: slots, logger: services.logger)
    }

    /// One plugin file as this run's plan knows it.
    private enum Item: Sendable {
        /// Described by the cache: its entry at this index.
        case cached(PluginDiscovery.Candidate, entry: Int)
        /// New or changed: to be scanned; `vouched` when someone vouched for it.
        case needsScan(PluginDiscovery.Candidate, vouched: Bool)
        /// Refused by the host's own checks before any of its code ran.
        case refused(PluginDiscovery.Candidate, PluginLoadError)
    }

    /// One plugin file once scanned, if it needed a scan.
    private enum Listed {
        /// What it provides: the new cache's entry at this index, from the
        /// old cache or, when `scanned`, from this run's scan.
        case described(PluginDiscovery.Candidate, entry: Int, scanned: Bool)
        /// Refused by the host's own checks before any of its code ran.
        case refused(PluginDiscovery.Candidate, PluginLoadError)

        /// The file.
        var candidate: PluginDiscovery.Candidate {
            switch self {
            case .described(let candidate, _, _), .refused(let candidate, _): candidate
            }
        }
    }

    private struct Plan: Sendable {
        let store: ScanCacheStore
        let previous: ScanCache?
        /// Why the cache file there was not used, when it was refused: said
        /// once, when the plan is carried out.
        let refusal: ScanCacheStore.ReadError?
        var items: [Item]
        var needingScan: [PluginDiscovery.Candidate] {
            items.compactMap { if case .needsScan(let candidate, _) = $0 { candidate } else { nil } }
        }
    }

    private func plan(rebuild: Bool) -> Plan {
        // Not keyed by the configuration: a plugin registers the same fetchers whatever API it is pointed at,
        // and switching --api-base-url must not rescan every plugin.
        let store = ScanCacheStore(cacheHome: cacheHome, searchPath: searchPath)
        var previous: ScanCache?
        var refusal: ScanCacheStore.ReadError?
        if !rebuild {
            switch store.read(host: HostIdentity.current, abiVersion: PluginABIVersion.current) {
            case .success(let cache): previous = cache
            case .failure(.missing): break
            case .failure(let reason): refusal = reason
            }
        }
        let entries = EntryIndex(previous?.entries ?? [])
        let locks = run.locks
        var startsWorkers = false
        let items = candidates.map { candidate -> Item in
            if let identity = candidate.identity, let index = entries.index(of: candidate.path), entries.entries[index].identity == identity {
                // A lock file or a vouch that appeared since the scan needs the digest the scan did not take.
                if entries.entries[index].sha256 != nil || !locks.lock(for: candidate.path).needsDigest { return .cached(candidate, entry: index) }
            }
            // The host's own checks are cheap and run no plugin code: only a file that passes them needs a worker.
            do throws(PluginLoadError) {
                try PluginFile.open(candidate.path, rules: trust.rules, lock: locks.lock(for: candidate.path)).closeUnloaded()
                if !startsWorkers && !options.isolation.skippedSandboxLayers.contains(.namespaces) {
                    // A scan follows: the workers' shared namespaces (about a millisecond, once) are
                    // made on the spawn thread while this plan and the scan's task get going.
                    startsWorkers = true
                    _ = WorkerSpawnThread.shared.run { _ = WorkerNamespaces.shared.plan() }
                }
                let vouched = run.placement(of: candidate, notingPins: false).voucher != .nobody
                return .needsScan(candidate, vouched: vouched)
            } catch {
                return .refused(candidate, error)
            }
        }
        return Plan(store: store, previous: previous, refusal: refusal, items: items)
    }

    /// Lists the plan's files: `scanned` has one outcome per file to scan,
    /// in order, nil for one left for later, which is not listed.
    private func finish(_ plan: Plan, scanned: [PluginScanner.Outcome?], writer: ScanCacheWriter?) -> (LoadedPlugins, RescanReport) {
        if let refusal = plan.refusal {
            services.logger.warning("ignoring the plugin cache \(plan.store.path): \(refusal); rebuilding it")
        }
        let previous = plan.previous?.entries ?? []
        // A run that scanned nothing and lists every entry in the cache's order writes nothing, and copies no entry.
        let unchanged = plan.refusal == nil && plan.previous != nil && plan.items.count == previous.count
            && plan.items.indices.allSatisfy { if case .cached(_, let entry) = plan.items[$0] { entry == $0 } else { false } }
        var entries = unchanged ? previous : []
        var outcomes = scanned.makeIterator()
        let items = plan.items.compactMap { item -> Listed? in
            switch item {
            case .cached(let candidate, let index):
                if unchanged { return .described(candidate, entry: index, scanned: false) }
                entries.append(previous[index])
                return .described(candidate, entry: entries.count - 1, scanned: false)
            case .refused(let candidate, let failure): return .refused(candidate, failure)
            case .needsScan(let candidate, _):
                // One outcome per file to scan, in order.
                switch outcomes.next() {
                case .scanned(let entry)??:
                    entries.append(entry)
                    return .described(candidate, entry: entries.count - 1, scanned: true)
                case .refused(let failure)??: return .refused(candidate, failure)
                case .some(nil): return nil
                case nil: return .refused(candidate, PluginLoadError(.changedSinceListed))
                }
            }
        }

        // Before the cache is written and the listing composed: the workers' start overlaps both.
        let prestarts = prestart(items, entries: entries)

        // Each scan was written as it finished; this writes what the cache dropped or refused too.
        let writeError = unchanged ? nil : (writer ?? self.writer(for: plan)).write()
        let scannedEntries = items.compactMap { if case .described(_, let entry, scanned: true) = $0 { entries[entry] } else { nil } }
        services.logger.debug(
            "plugin cache \(plan.store.path): \(items.count - scannedEntries.count) files described by it, \(scannedEntries.count) scanned")

        let loaded = compose(items, entries: entries, prestarts: prestarts)
        let report = RescanReport(
            cachePath: plan.store.path, scanned: scannedEntries.count, loaded: scannedEntries.count { $0.status == .loaded }, writeError: writeError)
        return (loaded, report)
    }

    /// The reports and fetcher rows of the listed files, in search order,
    /// which is the order the registry ranks equals by, as loading in that
    /// order would. The host's checks that depend on more than the file
    /// (its directory, the lock file) are made again here.
    private func compose(
        _ items: [Listed], entries: [ScanCache.Entry], prestarts: [String: WorkerPrestart]
    ) -> LoadedPlugins {
        var result = PluginLoader.Outcome()
        result.reports.reserveCapacity(items.count)
        var plugins: [OnDemandPlugins.Plugin] = []
        var rows: [FetcherListing] = []
        var providers: [Int] = []
        var vouchers: [String: Placement.Voucher] = [:]
        var checkedDirectories = Set<String>()
        let allowedURLs = services.allowedURLs
        let rule = run.rule
        // This run's sandbox, not the one a scan recorded: judged once, when
        // the first isolated plugin is listed, if the run shows or requires it.
        var sandboxNow: SandboxReport?
        for item in items {
            let candidate = item.candidate
            // Once per plugin: with a trust store, each look resolves the plugin's directory.
            let lock = run.locks.lock(for: candidate.path)
            var outcome: Result<PluginReport, PluginLoadError>
            var entry: Int?
            var scanned = false
            switch item {
            case .refused(_, let failure):
                outcome = .failure(failure)
            case .described(_, let index, let wasScanned):
                (entry, scanned) = (index, wasScanned)
                outcome = Result { () throws(PluginLoadError) in
                    try listing(entries[index], candidate: candidate, lock: lock, checkedDirectories: &checkedDirectories)
                }
            }
            let placement = rule.placement(of: candidate.path, origin: candidate.origin, lock: lock)
            vouchers[candidate.path] = placement.voucher
            if placement.place == .isolated && options.isolation.judgesSandbox {
                let sandbox = sandboxNow ?? SandboxProbe.reportWaiting(skipping: options.isolation.skippedSandboxLayers)
                sandboxNow = sandbox
                if options.isolation.requireFullSandbox && sandbox.level != .full, case .success = outcome, let entry {
                    let listed = entries[entry]
                    outcome = .failure(
                        PluginLoadError(.sandboxRequired(sandbox)).describing(name: listed.name, version: listed.version, metadata: listed.metadata))
                }
            }
            var endpoint: PluginEndpoint?
            if case .success(let report) = outcome, let entry {
                let identity = PluginIdentity(name: report.name, version: report.version ?? "", path: candidate.path, voucher: placement.voucher)
                // The scan took the digest of this unchanged file, since a grant applies (``ApplicableLock/needsDigest``).
                let claim = lock.granted.map { NetworkGrant.Claim(grant: $0, digest: entries[entry].sha256) }
                endpoint = services.endpoint(for: identity, declared: entries[entry].metadata?.apiBaseURL, grant: claim)
                plugins.append(OnDemandPlugins.Plugin(path: candidate.path, identity: identity, placement: placement, fileIdentity: entries[entry].identity))
                for fetcher in entries[entry].fetchers {
                    rows.append(FetcherListing(symbol: fetcher.symbol, displayName: fetcher.displayName, plugin: identity, rank: SourceRank(fetcher.rank)))
                    providers.append(plugins.count - 1)
                }
            }
            result.record(outcome.map { ($0, []) }, for: candidate.path, services: services)
            let index = result.reports.count - 1
            result.reports[index].placement = placement
            result.reports[index].cached = entry != nil && !scanned
            if placement.place == .isolated, let sandbox = sandboxNow ?? entry.map({ entries[$0].sandbox }) { result.reports[index].sandbox = sandbox }
            if let endpoint {
                result.reports[index].record(endpoint)
            } else {
                result.reports[index].allowedURLs = allowedURLs
            }
        }
        run.noteLockFilesThatOnlyPin()
        let thefts = result.refuseNameThefts(voucher: { vouchers[$0] ?? .nobody }, services: services)
        if !thefts.isEmpty {
            let kept = rows.indices.filter { !thefts.contains(rows[$0].plugin.path) }
            rows = kept.map { rows[$0] }
            providers = kept.map { providers[$0] }
        }
        let onDemand = OnDemandPlugins(plugins, run: run, prestarts: prestarts)
        var loaded = LoadedPlugins(
            reports: result.reports, registry: FetcherRegistry(rows, providedBy: onDemand, plugins: providers, ranks: options.ranks), workers: [], onDemand: onDemand,
            services: services)
        loaded.workerSlots = options.isolation.slots
        return loaded
    }

    /// Starts the worker of each plugin that a fetch of ``LoadOptions/fetching``
    /// will load in a worker: the one listed file that provides the symbol,
    /// if the policy isolates it. A symbol several files provide is left to
    /// the fetch, which ranks them. The composition that follows may still
    /// refuse the file (its directory, its lock), or the fetch ask another
    /// source; the worker is then stopped unused at shutdown, having loaded
    /// nothing.
    private func prestart(_ items: [Listed], entries: [ScanCache.Entry]) -> [String: WorkerPrestart] {
        guard !options.fetching.isEmpty, options.policy.mayIsolate else { return [:] }
        let symbols = Set(options.fetching.map(FetcherSymbol.normalized))
        var providers: [String: [(candidate: PluginDiscovery.Candidate, entry: Int)]] = [:]
        for item in items {
            guard case .described(let candidate, let index, _) = item, entries[index].status == .loaded else { continue }
            for fetcher in entries[index].fetchers where symbols.contains(fetcher.symbol) {
                providers[fetcher.symbol, default: []].append((candidate, index))
            }
        }
        var prestarts: [String: WorkerPrestart] = [:]
        for case let only? in providers.values.map({ $0.count == 1 ? $0[0] : nil }) where prestarts[only.candidate.path] == nil {
            let placement = run.placement(of: only.candidate, notingPins: false)
            guard placement.place == .isolated else { continue }
            prestarts[only.candidate.path] = run.prestart(only.candidate, identity: entries[only.entry].identity, placement: placement)
        }
        return prestarts
    }

    /// One listed file's report, or why it fails now.
    private func listing(
        _ entry: ScanCache.Entry, candidate: PluginDiscovery.Candidate, lock: ApplicableLock, checkedDirectories: inout Set<String>
    ) throws(PluginLoadError) -> PluginReport {
        let path = candidate.path
        func fail(_ error: PluginLoadError) -> PluginLoadError {
            error.describing(name: entry.status == .loaded ? entry.name : nil, version: entry.version, metadata: entry.metadata)
        }
        do throws(PluginLoadError) {
            try PluginFile.checkPlacement(of: path, isSymbolicLink: candidate.isSymbolicLink, rules: trust.rules, checked: &checkedDirectories)
            // The lock-file and trust-store check of loading, on the digest the scan took of this unchanged file.
            _ = try lock.verify(path) { () throws(PluginLoadError) in
                // A scan takes the digest whenever a lock or a vouch applies; without one the file is scanned again.
                guard let digest = entry.sha256 else { throw PluginLoadError(.changedSinceListed) }
                return digest
            }
        } catch {
            throw fail(error)
        }
        guard entry.status == .loaded, let version = entry.version else {
            var failure = fail(PluginLoadError(.failedScan(entry.error ?? "failed")))
            failure.name = entry.name
            throw failure
        }
        guard !entry.fetchers.isEmpty else { throw fail(PluginLoadError(.nothingRegistered(refused: []))) }
        var report = PluginReport(
            name: entry.name, version: version, path: path, status: .loaded, fetchers: entry.fetchers.map(\.symbol), error: nil, warnings: entry.warnings)
        report.metadata = entry.metadata
        return report
    }
}

/// The cache's entries by path, read in order: a listing meets the files in
/// the order the cache wrote them, so a dictionary is built only when one
/// is out of place (a file added or removed).
private final class EntryIndex {
    let entries: [ScanCache.Entry]
    private var next = 0
    private var byPath: [String: Int]?

    init(_ entries: [ScanCache.Entry]) {
        self.entries = entries
    }

    /// Where the entry for `path` is, if the cache has one.
    func index(of path: String) -> Int? {
        if next < entries.count, entries[next].path == path {
            next += 1
            return next - 1
        }
        let byPath = self.byPath ?? Dictionary(entries.indices.map { (entries[$0].path, $0) }, uniquingKeysWith: { first, _ in first })
        self.byPath = byPath
        guard let index = byPath[path] else { return nil }
        next = index + 1
        return index
    }
}
