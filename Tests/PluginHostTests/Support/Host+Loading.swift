@testable import PluginHost

/// Two ways of loading that only tests need: every plugin in-process, or
/// every plugin in a worker, without the scan cache and without a policy.
extension Host {
    /// Finds and loads every plugin in-process and fills the registry with their fetchers.
    func loadPlugins() -> LoadedPlugins {
        loadPlugins(placing: nil)
    }

    /// Finds the plugins and loads each in a worker process of its own.
    /// Call ``LoadedPlugins/shutdown()`` when done, to stop the workers.
    func loadPlugins(isolation: IsolationOptions) async -> LoadedPlugins {
        let (result, workers) = await IsolatedPluginLoader(services: services, trust: trust, options: isolation).load(pluginFiles())
        return LoadedPlugins(reports: result.reports.map { withAllowedURLs($0) }, registry: FetcherRegistry(result.fetchers), workers: workers, services: services)
    }
}
