import Patchbay
import Synchronization

/// The shared registry that plugins fill: every fetcher of every plugin,
/// each symbol's providers in the order ``SymbolProviders`` gives them, and
/// a Patchbay container of them for the dependency graph.
///
/// In the container each plugin is registered under its name, and each
/// provider of a symbol as a named `PluginFetcher`: the one `fetch` asks
/// first under the symbol itself (`ETH`), the others as `ETH #2`, `ETH #3`
/// in the order they are asked. Each resolves its plugin and the provider
/// asked after it, so the graph shows who provides what, and the failover.
package struct FetcherRegistry: Sendable {
    /// The container, filled on first use: a listing prints ``fetchers`` and
    /// needs none, and with a thousand plugins registering them all cost a
    /// listing a fifth of its time.
    private let filled: FilledOnce
    /// Every fetcher, in load order.
    package let fetchers: [PluginFetcher]
    /// Each symbol's providers, in the order `fetch` asks them.
    package let providers: SymbolProviders
    /// Each provider's fetcher, by plugin file and symbol.
    private let byProvider: [ProviderKey: PluginFetcher]

    private struct ProviderKey: Hashable, Sendable {
        let path: String
        let symbol: String
    }

    /// The graph notations ``graph(_:)`` can print.
    package enum GraphNotation: String, Sendable, CaseIterable {
        /// Graphviz DOT.
        case dot
        /// A Mermaid flowchart.
        case mermaid
    }

    /// A registry of `fetchers`, and the plugins they come from.
    /// - Parameters:
    ///   - fetchers: Every fetcher, plugins in search order, each plugin's together.
    ///   - vouched: The plugin files someone vouched for, whose declared ranks are believed in full.
    ///   - ranks: The user's ranks, by plugin name.
    package init(_ fetchers: [PluginFetcher], vouched: Set<String> = [], ranks: RankOverrides = RankOverrides()) {
        self.fetchers = fetchers
        var providers = SymbolProviders(overrides: ranks)
        var start = fetchers.startIndex
        while start < fetchers.endIndex {
            let plugin = fetchers[start].plugin
            let end = fetchers[start...].firstIndex { $0.plugin.path != plugin.path } ?? fetchers.endIndex
            providers.add(
                plugin: plugin, vouched: vouched.contains(plugin.path),
                fetchers: fetchers[start..<end].map { SymbolProviders.Fetcher(symbol: $0.symbol, displayName: $0.displayName, declared: $0.rank) })
            start = end
        }
        self.providers = providers
        self.byProvider = Dictionary(fetchers.map { (ProviderKey(path: $0.plugin.path, symbol: $0.symbol), $0) }, uniquingKeysWith: { first, _ in first })
        self.filled = FilledOnce(providers: providers, fetchers: byProvider)
    }

    /// The container of every fetcher and plugin.
    var container: Container { filled.container }

    /// Registers the fetchers in a new container the first time it is asked for.
    private final class FilledOnce: Sendable {
        private let providers: SymbolProviders
        private let fetchers: [ProviderKey: PluginFetcher]
        private let filled = Mutex<Container?>(nil)

        init(providers: SymbolProviders, fetchers: [ProviderKey: PluginFetcher]) {
            self.providers = providers
            self.fetchers = fetchers
        }

        var container: Container {
            filled.withLock { filled in
                if let filled { return filled }
                let container = FetcherRegistry.fill(providers, fetchers)
                filled = container
                return container
            }
        }
    }

    /// A container in which each provider is registered under its place in
    /// its symbol's order, and resolves its plugin and the next provider.
    private static func fill(_ providers: SymbolProviders, _ fetchers: [ProviderKey: PluginFetcher]) -> Container {
        let container = Container(defaultScope: .singleton)
        var pluginKeys: [String: String] = [:]
        var taken = Set<String>()
        for symbol in providers.symbols {
            let ordered = providers.providers(of: symbol)
            let asked = ordered.filter { $0.rank > .none }.count
            for (index, provider) in ordered.enumerated() {
                let plugin = provider.plugin
                let key = pluginKeys[plugin.path] ?? Self.uniqueKey(for: plugin, taken: taken)
                if pluginKeys[plugin.path] == nil {
                    pluginKeys[plugin.path] = key
                    taken.insert(key)
                    container.register(PluginIdentity.self, name: key) { _ in plugin }
                }
                guard let fetcher = fetchers[ProviderKey(path: plugin.path, symbol: symbol)] else { continue }
                let next = index + 1 < asked ? registrationName(symbol, place: index + 1) : nil
                container.register(PluginFetcher.self, name: registrationName(symbol, place: index, asked: index < asked)) { resolver in
                    _ = try resolver.resolve(PluginIdentity.self, name: key)
                    if let next { _ = try resolver.resolve(PluginFetcher.self, name: next) }
                    return fetcher
                }
            }
        }
        return container
    }

    /// `ETH` for the provider asked first, `ETH #2` and on for the others.
    private static func registrationName(_ symbol: String, place: Int, asked: Bool = true) -> String {
        place == 0 && asked ? symbol : "\(symbol) #\(place + 1)"
    }

    /// Two files may carry a plugin of the same name; the path tells them apart.
    private static func uniqueKey(for plugin: PluginIdentity, taken: Set<String>) -> String {
        taken.contains(plugin.name) ? "\(plugin.name) (\(plugin.path))" : plugin.name
    }

    /// The registered symbols, sorted, each once.
    package var symbols: [String] { providers.symbols }

    /// The fetcher `fetch` asks first for `symbol`, matched case-insensitively.
    /// - Throws: ``FetchError`` naming the available symbols when none
    ///   matches, or the plugins when every provider has rank 0.
    package func fetcher(for symbol: String) throws(FetchError) -> PluginFetcher {
        guard let first = try sources(for: symbol, named: nil).first else {
            throw FetchError(symbol: symbol, .unknownSymbol(available: symbols))
        }
        return first
    }

    /// The fetchers `fetch` asks for `symbol`, in order: every provider but
    /// those at rank 0, or only the plugin named `source`, whatever its rank.
    /// - Parameters:
    ///   - symbol: As the user typed it (`eth` finds `ETH`).
    ///   - source: A plugin's name, to ask that plugin alone.
    /// - Throws: ``FetchError``: an unknown symbol, no provider of that
    ///   name, or only providers at rank 0.
    package func sources(for symbol: String, named source: String?) throws(FetchError) -> [PluginFetcher] {
        let normalized = FetcherSymbol.normalized(symbol)
        let all = providers.providers(of: normalized)
        guard !all.isEmpty else { throw FetchError(symbol: symbol, .unknownSymbol(available: symbols)) }
        let chosen: [SymbolProviders.Provider]
        if let source {
            chosen = all.filter { $0.plugin.name == source }
            guard !chosen.isEmpty else { throw FetchError(symbol: symbol, .noSuchSource(source, sources: all.map(\.plugin.name))) }
        } else {
            chosen = all.filter { $0.rank > .none }
            guard !chosen.isEmpty else { throw FetchError(symbol: symbol, .onlyUnranked(sources: all.map(\.plugin.name))) }
        }
        return chosen.compactMap { byProvider[ProviderKey(path: $0.plugin.path, symbol: normalized)] }
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
