import ArgumentParser
import PluginHost

/// `host list-fetchers`: every symbol the loaded plugins provide.
struct ListFetchers: ReportCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the symbols the loaded plugins can fetch: every source of each, in the order fetch asks them, with its rank.",
        discussion: ExitCode.listingStatuses + "\n\n" + rankRule + "\n\n" + PluginOptions.selectorRule)

    /// What RANK shows, and the two reasons it may differ from the declared rank.
    static let rankRule = """
        RANK is the rank fetch uses; when it is not the one the fetcher declares, it says both and why, \
        e.g. 128 (declared 256, capped: nobody vouched for it), or (declared 256, HOST_RANKS) for the user's HOST_RANKS=PLUGIN:RANK.
        """

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func show(_ loaded: LoadedPlugins) {
        print(Rendering.fetchers(loaded.registry.providers, as: format), terminator: "")
    }
}
