import FoundationEssentials
import Logging
import PluginBoundary
import PluginABI

/// The host's composition root.
///
/// Everything the host is made of is passed in through initialisers: where
/// plugins are found, the services they get, and through those the
/// networking. Nothing is looked up at run time, so the compiler checks the
/// wiring. The Patchbay container is used only where late binding pays off:
/// as the registry that plugins fill (see ``FetcherRegistry``).
package struct Host: Sendable {
    /// Where plugin files are found.
    package let discovery: PluginDiscovery
    /// What plugins are offered.
    package let services: HostServices
    /// The checks a plugin file passes before it is loaded.
    package let trust: PluginTrust
    /// What the program calls the settings its users change, for the fixes
    /// messages suggest.
    package var names: SettingNames { services.names }

    /// Wires a host.
    /// - Parameters:
    ///   - discovery: The plugin search path.
    ///   - services: The services every plugin gets.
    ///   - trust: Ownership, permission and lock-file checks; by default
    ///     the rules for the current user and any `plugins.lock` beside the plugins.
    package init(discovery: PluginDiscovery, services: HostServices, trust: PluginTrust = PluginTrust()) {
        self.discovery = discovery
        self.services = services
        self.trust = trust
    }

    /// Wires the production host: real HTTP through AsyncHTTPClient, `file://`
    /// from disk, and an API base for each plugin, which may fetch only
    /// under it and under the grants.
    /// - Parameters:
    ///   - discovery: The plugin search path.
    ///   - apiBases: The API each plugin talks to: the user's choices, by
    ///     plugin or for all, over what each plugin declares.
    ///   - allowedURLs: More prefixes every plugin may fetch under, granted by the user.
    ///   - grantOption: How a user grants a prefix, for refusals to name, e.g. `--allow-url`.
    ///   - baseOption: How a user sets a plugin's base, for refusals to name, e.g. `--api-base-url`.
    ///   - network: The trust roots and proxies of http and https requests,
    ///     and the advice after a refused certificate.
    ///   - logger: Where the host's and the plugins' log lines go.
    ///   - trust: The checks plugin files pass before they are loaded.
    ///   - names: The program's names for its settings, for the fixes messages suggest.
    package static func live(
        discovery: PluginDiscovery, apiBases: APIBases = APIBases(), allowedURLs: [URLPrefix] = [], grantOption: String? = nil,
        baseOption: String? = nil, network: NetworkSettings = NetworkSettings(), logger: Logger, trust: PluginTrust = PluginTrust(),
        names: SettingNames = SettingNames()
    ) -> Host {
        // Every file base a plugin may be given; each plugin's own policy still decides which of them it reads.
        let bases = [apiBases.fallback] + (apiBases.everyPlugin.map { [$0] } ?? []) + apiBases.byPlugin.values.sorted()
        let fileRoots = URLPolicy(allowing: bases.compactMap { try? URLPrefix($0) } + allowedURLs).fileRoots
        // One cap for every body a plugin receives, over HTTP or from a file.
        let maximumBodySize = 1 << 20
        let networking = SchemeRoutingNetworking(
            web: HostHTTPNetworking(maximumBodySize: maximumBodySize, settings: network, logger: logger),
            files: FileNetworking(roots: fileRoots, maximumBodySize: maximumBodySize)
        )
        let services = HostServices(
            networking: networking, apiBases: apiBases, grants: allowedURLs, grantOption: grantOption, baseOption: baseOption,
            configuration: configuration(apiBaseURL: nil), logger: logger, names: names)
        return Host(discovery: discovery, services: services, trust: trust)
    }

    /// The configuration values plugins may read with `config_value`.
    /// - Parameter apiBaseURL: Every plugin's API base; nil when each plugin
    ///   gets its own, from `APIBases`.
    package static func configuration(apiBaseURL: URL?) -> [String: String] {
        guard var base = apiBaseURL?.absoluteString else { return ["host_abi_version": "\(PluginABIVersion.current)"] }
        while base.hasSuffix("/") { base.removeLast() }
        return ["api_base_url": base, "host_abi_version": "\(PluginABIVersion.current)"]
    }

    /// Learns what the plugins provide and wires a registry of their fetchers.
    ///
    /// With the scan cache (the default), nothing is loaded: the cache
    /// says which file provides which symbol, files that are new or changed
    /// since their last scan are scanned in sandboxed workers first, and a
    /// fetch loads only the plugins it needs, each where ``LoadOptions/policy``
    /// puts it. Without it, every plugin is loaded, in search order.
    ///
    /// Problems are logged, one line per file, and never stop the others.
    /// Call ``LoadedPlugins/shutdown()`` when done, to stop any workers.
    package func loadPlugins(_ options: LoadOptions) async -> LoadedPlugins {
        let run = load(options)
        var loaded =
            switch options.cache {
            case .use(let cacheHome): await catalog(run, options, cacheHome: cacheHome).load(rebuild: false).0
            case .rebuild(let cacheHome): await catalog(run, options, cacheHome: cacheHome).load(rebuild: true).0
            case .off: await loadEagerly(run, ranks: options.ranks)
            }
        loaded.noPluginsFix = noPluginsFix
        return loaded
    }

    /// This run's load: the one value every load, scan and inspection of
    /// the run asks where a plugin runs and what pins it.
    func load(_ options: LoadOptions) -> PluginLoad {
        PluginLoad(services: services, trust: trust, policy: options.policy, isolation: options.isolation)
    }

    /// The scan cache's view of this run's plugin files, found now.
    private func catalog(_ run: PluginLoad, _ options: LoadOptions, cacheHome: String) -> PluginCatalog {
        PluginCatalog(
            run: run, candidates: pluginCandidates(), searchPath: discovery.locations.map(\.directory), options: options, cacheHome: cacheHome)
    }

    /// ``loadPlugins(_:)`` as far as it goes without a task: the plugins,
    /// from a warm cache or loaded in-process without one; or the rest of
    /// the work, scans or workers, which continues from what was done here.
    package func loadPluginsWithoutWaiting(_ options: LoadOptions) -> PreparedLoad {
        switch options.cache {
        case .use(let cacheHome):
            return catalog(load(options), options, cacheHome: cacheHome).loadWithoutScanning()
        case .off where !options.policy.mayIsolate:
            return .loaded(loadInProcess(load(options), ranks: options.ranks))
        case .off, .rebuild:
            return .needsTask(PendingLoad { await loadPlugins(options) })
        }
    }

    /// Scans every plugin again and rewrites the scan cache.
    package func rescan(_ options: LoadOptions, cacheHome: String) async -> (LoadedPlugins, RescanReport) {
        await catalog(load(options), options, cacheHome: cacheHome).load(rebuild: true)
    }

    /// Loads every plugin in-process, whatever the policy; the reports
    /// say where `run`, when given, puts each (everything in-process) and
    /// who vouched. Who vouched is asked either way: it decides which
    /// declared ranks and API bases are believed.
    func loadInProcess(_ run: PluginLoad?, ranks: RankOverrides = RankOverrides()) -> LoadedPlugins {
        let candidates = pluginCandidates()
        let load = run ?? PluginLoad(services: services, trust: trust, policy: .byTrust, isolation: IsolationOptions())
        let placements = candidates.map { load.placement(of: $0) }
        let vouchers = Self.vouchers(candidates, placements)
        var result = load.loadInProcess(candidates.map(\.path), vouchers: vouchers)
        result.reports = zip(result.reports, placements).map { withAllowedURLs($0, placement: run == nil ? nil : $1) }
        result.refuseNameThefts(voucher: { vouchers[$0] ?? .nobody }, services: services)
        return LoadedPlugins(reports: result.reports, registry: FetcherRegistry(result.fetchers, ranks: ranks), workers: [], services: services)
    }

    /// Loads every plugin in-process and reports none's placement: what
    /// tests of loading alone ask for.
    func loadPlugins(placing rule: PlacementRule?, ranks: RankOverrides = RankOverrides()) -> LoadedPlugins {
        loadInProcess(rule.map { PluginLoad(services: services, trust: trust, policy: $0.policy, isolation: IsolationOptions()) }, ranks: ranks)
    }

    /// Who vouched for each file of `candidates`, by their placements.
    static func vouchers(_ candidates: [PluginDiscovery.Candidate], _ placements: [Placement]) -> [String: Placement.Voucher] {
        PluginLoad.vouchers(candidates, placements)
    }

    /// Loads every plugin in search order, each where the policy puts it;
    /// the registry orders each symbol's providers (``SymbolProviders``),
    /// whichever way each was loaded. Consecutive files of one mode load
    /// together: workers start at once, and in-process files are all opened
    /// before any registers.
    private func loadEagerly(_ run: PluginLoad, ranks: RankOverrides) async -> LoadedPlugins {
        let candidates = pluginCandidates()
        let placements = candidates.map { run.placement(of: $0) }
        run.noteLockFilesThatOnlyPin()
        let vouchers = Self.vouchers(candidates, placements)
        let isolated = run.isolatedLoader(vouchers: { vouchers[$0] ?? .nobody })
        var loaded = PluginLoader.Outcome()
        var workers: [WorkerConnection] = []
        var start = 0
        while start < candidates.count {
            var end = start + 1
            while end < candidates.count, placements[end].place == placements[start].place { end += 1 }
            let files = candidates[start..<end].map(\.path)
            let result: PluginLoader.Outcome
            if placements[start].place == .isolated {
                let loaded = await isolated.load(files)
                result = loaded.0
                workers += loaded.1
            } else {
                result = run.loadInProcess(files, vouchers: vouchers)
            }
            loaded.reports += zip(result.reports, placements[start..<end]).map { withAllowedURLs($0, placement: $1) }
            loaded.fetchers += result.fetchers
            start = end
        }
        loaded.refuseNameThefts(voucher: { vouchers[$0] ?? .nobody }, services: services)
        return LoadedPlugins(
            reports: loaded.reports, registry: FetcherRegistry(loaded.fetchers, ranks: ranks), workers: workers, services: services)
    }

    /// `report`, recording where it ran, and the URLs its plugin may fetch
    /// when the loader could not say: those of a plugin that declares no base.
    func withAllowedURLs(_ report: PluginReport, placement: Placement? = nil) -> PluginReport {
        var report = report
        if report.apiBase == nil { report.allowedURLs = services.allowedURLs }
        report.placement = placement
        return report
    }
}

extension Host {
    /// The files discovery finds, with a warning line when there are none:
    /// an empty listing alone would not say where the host looked.
    func pluginFiles() -> [String] {
        pluginCandidates().map(\.path)
    }

    /// The files discovery finds, with a warning line when there are none.
    func pluginCandidates() -> [PluginDiscovery.Candidate] {
        let candidates = discovery.candidates { services.logger.warning("\($0)") }
        if candidates.isEmpty { warnNoPluginFiles() }
        return candidates
    }

    /// The warning for a search that found nothing.
    func warnNoPluginFiles() {
        let searched = discovery.locations.map(\.directory).joined(separator: ", ")
        services.logger.warning("no plugin files found in \(searched); \(noPluginsFix)")
    }

    /// How to get plugins when none were found, fitted to how the host was
    /// started: directories the user named, a checkout's build, or an installed copy.
    var noPluginsFix: String {
        if discovery.locations.contains(where: { $0.origin == .named }) {
            return "put plugin files (.so) there, or \(names.searchUsualDirectories)"
        }
        return "\(InstalledLayout.running.restoreAdvice("the bundled plugins")), or \(names.addPluginsDirectory)"
    }
}
