import ArgumentParser
import PluginHost

/// `host list-plugins`: every plugin file found, loaded or not, and why not.
struct ListPlugins: ReportCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the plugin files found, with their status.",
        discussion: ExitCode.listingStatuses)

    static let reportsSandbox = true

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func show(_ loaded: LoadedPlugins) {
        print(Rendering.plugins(loaded.reports, as: format), terminator: "")
    }
}
