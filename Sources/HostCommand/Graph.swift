import ArgumentParser
import PluginHost

/// `host graph`: the registry's dependency graph.
struct Graph: ReportCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the registry's dependency graph as Graphviz DOT or Mermaid.",
        discussion: ExitCode.listingStatuses + "\n\n" + PluginOptions.selectorRule)

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Graph notation: dot or mermaid.")
    var format: FetcherRegistry.GraphNotation = .dot

    func show(_ loaded: LoadedPlugins) {
        print(loaded.registry.graph(format), terminator: "")
    }
}

extension FetcherRegistry.GraphNotation: ExpressibleByArgument {}
