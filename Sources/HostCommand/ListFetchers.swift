import ArgumentParser
import PluginHost

/// `host list-fetchers`: every symbol the loaded plugins provide.
struct ListFetchers: ReportCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the symbols the loaded plugins can fetch: every source of each, in the order fetch asks them, with its rank.",
        discussion: ExitCode.listingStatuses + "\n\n" + PluginOptions.selectorRule)

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func show(_ loaded: LoadedPlugins) {
        print(Rendering.fetchers(loaded.registry.providers, as: format), terminator: "")
    }
}
