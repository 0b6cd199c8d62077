import ArgumentParser
import Logging

/// `host`: loads price-fetcher plugins and runs them. ``HostMain`` runs it.
struct HostCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Load price-fetcher plugins (.so) and fetch prices with them.",
        discussion: """
            Plugins are searched in the --plugins-dir directories, else in HOST_PLUGINS_DIR \
            (colon-separated), else beside this executable (lib*Plugin.so) and in ./plugins.
            """,
        version: PatchbayVersion.current,
        subcommands: [ListFetchers.self, ListPlugins.self, Fetch.self, Graph.self, LockPlugins.self, Inspect.self, NewPlugin.self, PluginWorkerCommand.self]
    )
}
