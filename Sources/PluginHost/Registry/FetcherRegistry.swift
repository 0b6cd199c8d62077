import Patchbay

/// The shared registry that plugins fill: a Patchbay container in which each
/// fetcher is a named registration, the name being its symbol.
///
/// Each plugin is registered too, under its name, and its fetchers resolve it,
/// so the container's dependency graph shows which plugin provides what.
package struct FetcherRegistry: Sendable {
    let container: Container
    /// Every fetcher, in load order.
    package let fetchers: [PluginFetcher]

    /// The graph notations ``graph(_:)`` can print.
    package enum GraphNotation: String, Sendable, CaseIterable {
        /// Graphviz DOT.
        case dot
        /// A Mermaid flowchart.
        case mermaid
    }

    /// Registers `fetchers`, and the plugins they come from, in a new container.
    package init(_ fetchers: [PluginFetcher]) {
        let container = Container(defaultScope: .singleton)
        var pluginKeys: [String: String] = [:]
        var taken = Set<String>()
        for fetcher in fetchers {
            let plugin = fetcher.plugin
            let key = pluginKeys[plugin.path] ?? Self.uniqueKey(for: plugin, taken: taken)
            if pluginKeys[plugin.path] == nil {
                pluginKeys[plugin.path] = key
                taken.insert(key)
                container.register(PluginIdentity.self, name: key) { _ in plugin }
            }
            container.register(PluginFetcher.self, name: fetcher.symbol) { resolver in
                _ = try resolver.resolve(PluginIdentity.self, name: key)
                return fetcher
            }
        }
        self.container = container
        self.fetchers = fetchers
    }

    /// Two files may carry a plugin of the same name; the path tells them apart.
    private static func uniqueKey(for plugin: PluginIdentity, taken: Set<String>) -> String {
        taken.contains(plugin.name) ? "\(plugin.name) (\(plugin.path))" : plugin.name
    }

    /// The registered symbols, sorted.
    package var symbols: [String] { fetchers.map(\.symbol).sorted() }

    /// The fetcher for `symbol`, matched case-insensitively.
    /// - Throws: ``FetchError`` naming the available symbols when none matches.
    package func fetcher(for symbol: String) throws(FetchError) -> PluginFetcher {
        do {
            return try container.resolve(PluginFetcher.self, name: FetcherSymbol.normalized(symbol))
        } catch where error.code == .notRegistered {
            throw FetchError(symbol: symbol, .unknownSymbol(available: symbols))
        } catch {
            // Registrations here only return values they captured; anything
            // else is a bug worth showing in full rather than hiding.
            throw FetchError(symbol: symbol, .plugin(message: error.description))
        }
    }

    /// The container's dependency graph, as observed by `verify()`.
    package func graph(_ notation: GraphNotation) -> String {
        let graph: DependencyGraph
        do {
            graph = try container.verify()
        } catch {
            graph = error.graph
        }
        return (notation == .dot ? graph.dot : graph.mermaid) + "\n"
    }
}
