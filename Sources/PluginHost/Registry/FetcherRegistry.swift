/// TEMP until Patchbay lands.
public struct FetcherRegistry: Sendable {
    public let fetchers: [PluginFetcher]
    public init(_ fetchers: [PluginFetcher]) { self.fetchers = fetchers }
    public var symbols: [String] { fetchers.map(\.symbol).sorted() }
    public enum GraphNotation: Sendable { case dot, mermaid }
    public func graph(_ notation: GraphNotation) -> String { "digraph {}\n" }
    public func fetcher(for symbol: String) throws(FetchError) -> PluginFetcher {
        guard let f = fetchers.first(where: { $0.symbol == FetcherSymbol.normalized(symbol) }) else {
            throw FetchError(symbol: symbol, .unknownSymbol(available: symbols))
        }
        return f
    }
}
