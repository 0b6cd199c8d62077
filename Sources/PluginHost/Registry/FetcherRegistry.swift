import Patchbay
import Synchronization

/// The shared registry that plugins fill: a Patchbay container in which each
/// fetcher is a named registration, the name being its symbol.
///
/// Each plugin is registered too, under its name, and its fetchers resolve it,
/// so the container's dependency graph shows which plugin provides what.
package struct FetcherRegistry: Sendable {
    /// The container, filled on first use: a listing prints ``fetchers`` and
    /// needs none, and with a thousand plugins registering them all cost a
    /// listing a fifth of its time.
    private let filled: FilledOnce
    /// Every fetcher, in load order.
    package let fetchers: [PluginFetcher]

    /// The graph notations ``graph(_:)`` can print.
    package enum GraphNotation: String, Sendable, CaseIterable {
        /// Graphviz DOT.
        case dot
        /// A Mermaid flowchart.
        case mermaid
    }

    /// A registry of `fetchers`, and the plugins they come from.
    package init(_ fetchers: [PluginFetcher]) {
        self.fetchers = fetchers
        self.filled = FilledOnce(fetchers)
    }

    /// The container of every fetcher and plugin.
    var container: Container { filled.container }

    /// Registers the fetchers in a new container the first time it is asked for.
    private final class FilledOnce: Sendable {
        private let fetchers: [PluginFetcher]
        private let filled = Mutex<Container?>(nil)

        init(_ fetchers: [PluginFetcher]) {
            self.fetchers = fetchers
        }

        var container: Container {
            filled.withLock { filled in
                if let filled { return filled }
                let container = FetcherRegistry.fill(with: fetchers)
                filled = container
                return container
            }
        }
    }

    /// A container in which each fetcher is registered under its symbol and
    /// resolves the plugin that provides it.
    private static func fill(with fetchers: [PluginFetcher]) -> Container {
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
        return container
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
