/// Why a symbol produced no price.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case unknownSymbol(available: [String])
        case timedOut(after: Duration, plugin: String)
        case plugin(message: String)
        case emptyResult(plugin: String)
    }

    /// The symbol that failed, as the user typed it.
    public let symbol: String
    let kind: Kind

    init(symbol: String, _ kind: Kind) {
        self.symbol = symbol
        self.kind = kind
    }

    /// One line for the user, without the symbol (tables show it beside).
    public var message: String {
        switch kind {
        case .unknownSymbol(let available) where available.isEmpty:
            "unknown symbol \(symbol): no fetchers are loaded; run `swift build` to build the bundled plugins or pass --plugins-dir"
        case .unknownSymbol(let available):
            "unknown symbol \(symbol); available symbols: \(available.joined(separator: ", "))"
        case .timedOut(let after, let plugin):
            "timed out after \(after.humanReadable) waiting for \(plugin); raise --timeout to wait longer"
        case .plugin(let message):
            message
        case .emptyResult(let plugin):
            "\(plugin) answered with neither an amount nor an error"
        }
    }

    /// `SYMBOL: message`.
    public var description: String { "\(symbol): \(message)" }

    /// Whether the symbol was unknown rather than failing to fetch.
    public var isUnknownSymbol: Bool {
        if case .unknownSymbol = kind { true } else { false }
    }
}
