import Patchbay

/// The shared registry that plugins fill: every fetcher of every plugin,
/// and one Patchbay container, filled once when the plugins are known, that
/// orders each symbol's providers.
///
/// In the container, ``SymbolProviders`` registers each provider of a
/// symbol as a ranked ``SymbolProviders/Provider`` under the symbol (`ETH`),
/// so the container gives them in the order `fetch` asks them. `fetch`,
/// `list-fetchers` and `graph` all ask this one container; a provider's
/// fetcher is made from its row when a fetch asks for it.
///
/// The rows (``fetchers``) are data, and listings need nothing else.
package struct FetcherRegistry: Sendable {
    /// Every fetcher, in load order.
    package let fetchers: [FetcherListing]
    /// Each symbol's providers, in the order `fetch` asks them: the registry's container.
    package let providers: SymbolProviders
    /// Each plugin's registration name in the graph, by path.
    private let pluginKeys: [String: String]
    /// The row of each plugin file's fetcher for each symbol: the first, if it registered two.
    private let rowIndex: [FetcherKey: Int]
    /// Makes the fetcher of a row.
    private let provider: @Sendable (Int) -> PluginFetcher

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
        self.provider = provider
        pluginKeys = Self.keys(for: rows)
        rowIndex = Dictionary(rows.indices.map { (FetcherKey(path: rows[$0].plugin.path, symbol: rows[$0].symbol), $0) }, uniquingKeysWith: { first, _ in first })
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
        return places.compactMap { fetcher(of: all[$0]) }
    }

    /// The fetcher of `listed`, made from its row; every provider has one, since the providers are made from the rows.
    private func fetcher(of listed: SymbolProviders.Provider) -> PluginFetcher? {
        rowIndex[FetcherKey(path: listed.plugin.path, symbol: listed.symbol)].map(provider)
    }

    /// Whether someone vouched for the plugin file `fetcher` comes from.
    package func isVouched(_ fetcher: PluginFetcher) -> Bool {
        providers.providers(of: fetcher.symbol).first { $0.plugin.path == fetcher.plugin.path }?.isVouched ?? false
    }

    /// The registry's dependency graph: the container `fetch` asks, as its
    /// `verify()` observes it, with each symbol drawn as its providers in
    /// the order the container gives them, the one asked first under the
    /// symbol itself (`ETH`), the others as `ETH #2`, `ETH #3`; each depends
    /// on its plugin and on the provider asked after it.
    package func graph(_ notation: GraphNotation) -> String {
        // verify()'s graph, failures included: every symbol's registration resolved in a copy of the container.
        let graph = failoverGraph(of: providers.container.dependencyGraph())
        return (notation == .dot ? graph.dot : graph.mermaid) + "\n"
    }

    /// Each symbol `verified` holds, drawn as its providers in the
    /// container's order: each provider's place depends on its plugin and
    /// on the place asked after it.
    private func failoverGraph(of verified: DependencyGraph) -> DependencyGraph {
        var nodes: [DependencyGraph.Node] = []
        var edges: [DependencyGraph.Edge] = []
        var drawnPlugins = Set<String>()
        for registered in verified.nodes where registered.step.serviceType == SymbolProviders.Provider.self {
            guard let symbol = registered.step.name else { continue }
            let ordered = providers.providers(of: symbol)
            let asked = ordered.count { $0.rank > .none }
            for (place, listed) in ordered.enumerated() {
                let step = ResolutionStep(serviceType: PluginFetcher.self, name: Self.placeName(symbol, place: place, asked: place < asked))
                nodes.append(DependencyGraph.Node(step: step, scope: registered.scope))
                let plugin = ResolutionStep(serviceType: PluginIdentity.self, name: pluginKeys[listed.plugin.path] ?? listed.plugin.name)
                // A plugin is loaded once for the run, whatever it provides.
                if drawnPlugins.insert(listed.plugin.path).inserted { nodes.append(DependencyGraph.Node(step: plugin, scope: .singleton)) }
                edges.append(DependencyGraph.Edge(from: step, to: plugin))
                if place + 1 < asked {
                    edges.append(DependencyGraph.Edge(from: step, to: ResolutionStep(serviceType: PluginFetcher.self, name: Self.placeName(symbol, place: place + 1))))
                }
            }
        }
        return DependencyGraph(nodes: nodes, edges: edges)
    }

    /// `ETH` for the provider asked first, `ETH #2` and on for the others.
    private static func placeName(_ symbol: String, place: Int, asked: Bool = true) -> String {
        place == 0 && asked ? symbol : "\(symbol) #\(place + 1)"
    }

    /// One plugin file's fetcher for one symbol.
    private struct FetcherKey: Hashable {
        let path: String
        let symbol: String
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
