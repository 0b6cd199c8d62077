internal import PluginABI

/// How strongly a plugin's fetchers ask to be the ones `host fetch` asks
/// first, the way GStreamer ranks its plugin features.
///
/// When several plugins provide a symbol, the host asks them highest rank
/// first, and in its search order among equal ranks; the next is asked only
/// when the one before fails. The user has the last word: `HOST_RANKS`
/// overrides any plugin's rank, and the host believes a plugin nobody
/// vouched for only up to ``secondary``.
///
/// ```swift
/// PluginExport.descriptor(name: "EthereumPlugin", version: "1.0.0", rank: .primary) { services in … }
/// ```
public struct FetcherRank: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The rank as the header's `pb_fetcher.rank` holds it.
    public let value: UInt32

    /// A rank of any value, e.g. `FetcherRank(FetcherRank.primary.value + 1)`
    /// to come before every primary source.
    /// - Parameter value: The rank; higher is asked first.
    public init(_ value: UInt32) {
        self.value = value
    }

    /// `PB_RANK_PRIMARY`: the source to ask first.
    public static let primary = FetcherRank(PB_RANK_PRIMARY.rawValue)
    /// `PB_RANK_SECONDARY`: the default, asked after the primary sources.
    public static let secondary = FetcherRank(PB_RANK_SECONDARY.rawValue)
    /// `PB_RANK_MARGINAL`: asked after every better source.
    public static let marginal = FetcherRank(PB_RANK_MARGINAL.rawValue)
    /// `PB_RANK_NONE`: never asked unless the user names the plugin
    /// (`host fetch --source`).
    public static let none = FetcherRank(PB_RANK_NONE.rawValue)

    public static func < (left: FetcherRank, right: FetcherRank) -> Bool {
        left.value < right.value
    }

    /// The value, e.g. `256`.
    public var description: String { "\(value)" }
}
