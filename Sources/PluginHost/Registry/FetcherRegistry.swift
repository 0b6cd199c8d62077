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
///
/// The rows (``fetchers``) are data, and listings need nothing else. A
/// symbol's providers are registered in the container when a fetch first
/// asks for that symbol, so a fetch registers only what it may call;
/// ``graph(_:)`` registers them all.
package struct FetcherRegistry: Sendable {
    /// Every fetcher, in load order.
    package let fetchers: [FetcherListing]
    /// Each symbol's providers, in the order `fetch` asks them.
    package let providers: SymbolProviders
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
    /// - Parameters:
    ///   - fetchers: Every fetcher, plugins in search order, each plugin's
    ///     together; who vouched for each is in its ``PluginIdentity``.
    ///   - ranks: The user's ranks.
    package init(_ fetchers: [PluginFetcher], ranks: RankOverrides = RankOverrides()) {
        let rows = fetchers.map { FetcherListing(symbol: $0.symbol, displayName: $0.displayName, plugin: $0.plugin, rank: $0.rank) }
        self.init(rows: rows, ranks: ranks) { fetchers[$0] }
    }

    /// A registry of a listing's rows, whose fetchers load their plugin on
    /// the first call: `plugins[i]` is the index in `onDemand` of the plugin
    /// that provides `rows[i]`.
    init(_ rows: [FetcherListing], providedBy onDemand: OnDemandPlugins, plugins: [Int], ranks: RankOverrides) {
        self.init(rows: rows, ranks: ranks) { index in
            let row = rows[index]
            return PluginFetcher(symbol: row.symbol, displayName: row.displayName, rank: row.rank, plugin: row.plugin, listedIn: onDemand, at: plugins[index])
        }
    }

    private init(rows: [FetcherListing], ranks: RankOverrides, provider: @escaping @Sendable (Int) -> PluginFetcher) {
        fetchers = rows
        var providers = SymbolProviders(overrides: ranks)
        var start = rows.startIndex
        while start < rows.endIndex {
            let plugin = rows[start].plugin
            let end = rows[start...].firstIndex { $0.plugin.path != plugin.path } ?? rows.endIndex
            providers.add(
                plugin: plugin, voucher: plugin.voucher,
                fetchers: rows[start..<end].map { SymbolProviders.Fetcher(symbol: $0.symbol, displayName: $0.displayName, declared: $0.rank) })
            start = end
        }
        self.providers = providers
        container = RegistryContainer(rows, providers: providers, provider: provider)
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
    /// those at rank 0, or only the plugin `source` selects, whatever its rank.
    /// - Parameters:
    ///   - symbol: As the user typed it (`eth` finds `ETH`).
    ///   - source: A ``PluginSelector`` as the user wrote it, to ask that
    ///     plugin alone: a vouched plugin's name, or any plugin's file.
    /// - Throws: ``FetchError``: an unknown symbol, no provider of that
    ///   name, or only providers at rank 0.
    package func sources(for symbol: String, named source: String?) throws(FetchError) -> [PluginFetcher] {
        let normalized = FetcherSymbol.normalized(symbol)
        let all = providers.providers(of: normalized)
        guard !all.isEmpty else { throw FetchError(symbol: symbol, .unknownSymbol(available: symbols)) }
        let places: [Int]
        if let source {
            let selector = PluginSelector(source)
            places = all.indices.filter { selector.matches(all[$0].plugin) }
            guard !places.isEmpty else { throw FetchError(symbol: symbol, .noSuchSource(source, sources: all.map(\.plugin.selector))) }
        } else {
            places = all.indices.filter { all[$0].rank > .none }
            guard !places.isEmpty else { throw FetchError(symbol: symbol, .onlyUnranked(sources: all.map(\.plugin.selector))) }
        }
        let container = container.filled(with: [normalized])
        let asked = all.count { $0.rank > .none }
        do {
            var fetchers: [PluginFetcher] = []
            for place in places {
                fetchers.append(try container.resolve(PluginFetcher.self, name: RegistryContainer.registrationName(normalized, place: place, asked: place < asked)))
            }
            return fetchers
        } catch {
            // Registrations here only return values they captured; anything
            // else is a bug worth showing in full rather than hiding.
            throw FetchError(symbol: symbol, .unresolved(error.description))
        }
    }

    /// Whether someone vouched for the plugin file `fetcher` comes from.
    package func isVouched(_ fetcher: PluginFetcher) -> Bool {
        providers.providers(of: fetcher.symbol).first { $0.plugin.path == fetcher.plugin.path }?.isVouched ?? false
    }

    /// The container's dependency graph, as observed by `verify()`.
    package func graph(_ notation: GraphNotation) -> String {
        let graph: DependencyGraph
        do {
            graph = try container.filled(with: providers.symbols).verify()
        } catch {
            graph = error.graph
        }
        return (notation == .dot ? graph.dot : graph.mermaid) + "\n"
    }
}

/// The registry's container: each symbol's providers are registered under
/// their places in its order the first time the symbol is needed, each with
/// the plugin it resolves and the provider asked after it.
private final class RegistryContainer: Sendable {
    private let rows: [FetcherListing]
    private let providers: SymbolProviders
    private let provider: @Sendable (Int) -> PluginFetcher
    private let state = Mutex(State())

    private struct State {
        var container = Container(defaultScope: .singleton)
        var registered = Set<String>()
        var registeredPlugins = Set<String>()
        /// Each plugin's registration name, by path; made once, for every row.
        var keys: [String: String]?
        /// Each row's index, by plugin file and symbol; made once.
        var rowIndex: [RowKey: Int]?
    }

    private struct RowKey: Hashable {
        let path: String
        let symbol: String
    }

    init(_ rows: [FetcherListing], providers: SymbolProviders, provider: @escaping @Sendable (Int) -> PluginFetcher) {
        self.rows = rows
        self.providers = providers
        self.provider = provider
    }

    /// The container, with every provider of `symbols` registered.
    func filled(with symbols: [String]) -> Container {
        state.withLock { state in
            let keys = state.keys ?? Self.keys(for: rows)
            state.keys = keys
            let rowIndex = state.rowIndex ?? Dictionary(rows.indices.map { (RowKey(path: rows[$0].plugin.path, symbol: rows[$0].symbol), $0) }, uniquingKeysWith: { first, _ in first })
            state.rowIndex = rowIndex
            for symbol in symbols where state.registered.insert(symbol).inserted {
                let ordered = providers.providers(of: symbol)
                let asked = ordered.count { $0.rank > .none }
                for (place, listed) in ordered.enumerated() {
                    guard let row = rowIndex[RowKey(path: listed.plugin.path, symbol: symbol)] else { continue }
                    let fetcher = provider(row)
                    let plugin = fetcher.plugin
                    // Every row's plugin has a key: the keys are made from these rows.
                    let key = keys[plugin.path] ?? plugin.name
                    if state.registeredPlugins.insert(plugin.path).inserted {
                        state.container.register(PluginIdentity.self, name: key) { _ in plugin }
                    }
                    let next = place + 1 < asked ? Self.registrationName(symbol, place: place + 1) : nil
                    state.container.register(PluginFetcher.self, name: Self.registrationName(symbol, place: place, asked: place < asked)) { resolver in
                        _ = try resolver.resolve(PluginIdentity.self, name: key)
                        if let next { _ = try resolver.resolve(PluginFetcher.self, name: next) }
                        return fetcher
                    }
                }
            }
            return state.container
        }
    }

    /// `ETH` for the provider asked first, `ETH #2` and on for the others.
    static func registrationName(_ symbol: String, place: Int, asked: Bool = true) -> String {
        place == 0 && asked ? symbol : "\(symbol) #\(place + 1)"
    }

    /// Each plugin's registration name: its label (a plugin nobody vouched
    /// for is shown with its file), or with its path when an earlier plugin
    /// of the same label took it.
    private static func keys(for rows: [FetcherListing]) -> [String: String] {
        var keys: [String: String] = [:]
        var taken = Set<String>()
        for row in rows where keys[row.plugin.path] == nil {
            let label = row.plugin.label
            let key = taken.contains(label) ? "\(label) (\(row.plugin.path))" : label
            keys[row.plugin.path] = key
            taken.insert(key)
        }
        return keys
    }
}
