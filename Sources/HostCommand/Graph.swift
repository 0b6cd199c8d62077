import ArgumentParser
import PluginHost

/// `host graph`: the registry's dependency graph.
struct Graph: ReportCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the registry's dependency graph as Graphviz DOT or Mermaid.")

    /// The graph notations.
    enum Notation: String, ExpressibleByArgument, CaseIterable {
        case dot, mermaid
    }

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Graph notation: dot or mermaid.")
    var format: Notation = .dot

    func show(_ loaded: LoadedPlugins) {
        print(loaded.registry.graph(format == .dot ? .dot : .mermaid), terminator: "")
    }
}
