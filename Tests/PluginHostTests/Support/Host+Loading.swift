@testable import PluginHost

/// Two ways of loading that only tests need: every plugin in-process, or
/// every plugin in a worker, without the scan cache and without a policy.
extension Host {
    /// Finds and loads every plugin in-process and fills the registry with their fetchers.
    func loadPlugins() -> LoadedPlugins {
        loadPlugins(placing: nil)
    }

    /// Finds the plugins and loads each in a worker process of its own.
    /// Who vouched is asked as the host asks it: it decides which declared
    /// ranks and API bases are believed.
    /// Call ``LoadedPlugins/shutdown()`` when done, to stop the workers.
    func loadPlugins(isolation: IsolationOptions) async -> LoadedPlugins {
        let candidates = pluginCandidates()
        let locks = LockFileCache(trust: trust)
        let rule = PlacementRule(policy: .byTrust, trust: trust)
        let vouched = Self.vouchers(candidates, candidates.map { rule.placement(of: $0.path, origin: $0.origin, lock: locks.lock(for: $0.path)) })
        var loader = IsolatedPluginLoader(services: services, trust: trust, options: isolation)
        loader.vouched = { vouched[$0] != nil }
        let (result, workers) = await loader.load(candidates.map(\.path))
        return LoadedPlugins(
            reports: result.reports.map { withAllowedURLs($0) }, registry: FetcherRegistry(result.fetchers, vouchers: vouched), workers: workers,
            services: services)
    }
}
