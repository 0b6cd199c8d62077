import Patchbay
import Synchronization

/// The shared registry that plugins fill: a Patchbay container in which each
/// fetcher is a named registration, the name being its symbol.
///
/// Each plugin is registered too, under its name, and its fetchers resolve it,
/// so the container's dependency graph shows which plugin provides what.
///
/// The rows (``fetchers``) are data, and listings need nothing else. A
/// fetcher is registered in the container when a fetch first asks for its
/// symbol, so a fetch registers only the providers it calls; ``graph(_:)``
/// registers them all.
package struct FetcherRegistry: Sendable {
    /// Every fetcher, in load order.
    package let fetchers: [FetcherListing]
    /// The container, filled on demand.
    private let container: RegistryContainer

    /// The graph notations ``graph(_:)`` can print.
    package enum GraphNotation: String, Sendable, CaseIterable {
        /// Graphviz DOT.
        case dot
        /// A Mermaid flowchart.
        case mermaid
    }

    /// A registry of fetchers that plugins registered, and the plugins they come from.
    package init(_ fetchers: [PluginFetcher]) {
        self.fetchers = fetchers.map { FetcherListing(symbol: $0.symbol, displayName: $0.displayName, plugin: $0.plugin) }
        container = RegistryContainer(self.fetchers) { fetchers[$0] }
    }

    /// A registry of a listing's rows, whose fetchers load their plugin on
    /// the first call: `plugins[i]` is the index in `onDemand` of the plugin
    /// that provides `rows[i]`.
    init(_ rows: [FetcherListing], providedBy onDemand: OnDemandPlugins, plugins: [Int]) {
        fetchers = rows
        container = RegistryContainer(rows) { index in
            PluginFetcher(symbol: rows[index].symbol, displayName: rows[index].displayName, plugin: rows[index].plugin, listedIn: onDemand, at: plugins[index])
        }
    }

    /// The registered symbols, sorted.
    package var symbols: [String] { fetchers.map(\.symbol).sorted() }

    /// The fetcher for `symbol`, matched case-insensitively.
    /// - Throws: ``FetchError`` naming the available symbols when none matches.
    package func fetcher(for symbol: String) throws(FetchError) -> PluginFetcher {
        let name = FetcherSymbol.normalized(symbol)
        guard let index = fetchers.firstIndex(where: { $0.symbol == name }) else {
            throw FetchError(symbol: symbol, .unknownSymbol(available: symbols))
        }
        do {
            return try container.filled(with: [index]).resolve(PluginFetcher.self, name: name)
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
            graph = try container.filled(with: Array(fetchers.indices)).verify()
        } catch {
            graph = error.graph
        }
        return (notation == .dot ? graph.dot : graph.mermaid) + "\n"
    }
}

/// The registry's container: each fetcher is registered under its symbol
/// the first time it is needed, with the plugin it resolves.
private final class RegistryContainer: Sendable {
    private let rows: [FetcherListing]
    private let provider: @Sendable (Int) -> PluginFetcher
    private let state = Mutex(State())

    private struct State {
        var container = Container(defaultScope: .singleton)
        var registered = Set<Int>()
        var registeredPlugins = Set<String>()
        /// The plugins' registration names, learnt only as far down the rows as a fetch needs.
        var keys = RegistrationKeys()
    }

    init(_ rows: [FetcherListing], provider: @escaping @Sendable (Int) -> PluginFetcher) {
        self.rows = rows
        self.provider = provider
    }

    /// The container, with the fetchers at `indices` registered.
    func filled(with indices: [Int]) -> Container {
        state.withLock { state in
            for index in indices where state.registered.insert(index).inserted {
                let fetcher = provider(index)
                let plugin = fetcher.plugin
                // Every row's plugin has a key: the keys are made from these rows.
                let key = state.keys.key(for: plugin.path, in: rows) ?? plugin.name
                if state.registeredPlugins.insert(plugin.path).inserted {
                    state.container.register(PluginIdentity.self, name: key) { _ in plugin }
                }
                state.container.register(PluginFetcher.self, name: fetcher.symbol) { resolver in
                    _ = try resolver.resolve(PluginIdentity.self, name: key)
                    return fetcher
                }
            }
            return state.container
        }
    }
}

/// Each plugin's registration name: its own, or with its path when an
/// earlier plugin of the same name took it. Learnt in row order, and only
/// as far as asked: a fetch of the first plugin's symbol reads one row, not
/// a thousand.
private struct RegistrationKeys {
    private var keys: [String: String] = [:]
    private var taken = Set<String>()
    /// The first row not read yet.
    private var next = 0

    /// The registration name of the plugin at `path`, or nil when no row names it.
    mutating func key(for path: String, in rows: [FetcherListing]) -> String? {
        while keys[path] == nil, next < rows.count {
            let row = rows[next]
            next += 1
            guard keys[row.plugin.path] == nil else { continue }
            let key = taken.contains(row.plugin.name) ? "\(row.plugin.name) (\(row.plugin.path))" : row.plugin.name
            keys[row.plugin.path] = key
            taken.insert(key)
        }
        return keys[path]
    }
}
