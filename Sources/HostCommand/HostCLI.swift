import ArgumentParser
import Logging

/// `host`: loads price-fetcher plugins and runs them. ``HostMain`` runs it.
struct HostCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Load price-fetcher plugins (.so) and fetch prices with them.",
        discussion: """
            Plugins are searched in the --plugins-dir directories, else in HOST_PLUGINS_DIR \
            (colon-separated), else beside this executable (lib*Plugin.so), in $XDG_DATA_HOME/patchbay/plugins, \
            /usr/local/lib/patchbay/plugins, /usr/lib/patchbay/plugins and ./plugins. What each plugin provides \
            is kept in a cache ($XDG_CACHE_HOME/patchbay), so a command loads only the plugins it needs. \
            Plugins bundled with the host, or that you vouched for (host trust), run in this process; any other in a sandboxed worker.
            """,
        version: PatchbayVersion.report,
        subcommands: [ListFetchers.self, ListPlugins.self, Fetch.self, Graph.self, Rescan.self, LockPlugins.self, Trust.self, Untrust.self, Allow.self, Disallow.self, Inspect.self, NewPlugin.self]
    )
}
