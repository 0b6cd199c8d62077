import PluginABI

/// How early a plugin is asked for a symbol it provides, as GStreamer ranks
/// its plugin features: higher first, and search order among equals.
///
/// A fetcher declares one (`pb_fetcher.rank`, read by `pb_fetcher_rank`);
/// the host believes a plugin nobody vouched for only up to ``secondary``,
/// and the user overrides any plugin's with `HOST_RANKS`. ``none`` is never
/// asked unless the user names the plugin.
package struct SourceRank: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The rank, e.g. 256.
    package let value: UInt32

    /// A rank of any value.
    package init(_ value: UInt32) {
        self.value = value
    }

    /// `PB_RANK_PRIMARY`, 256.
    package static let primary = SourceRank(PB_RANK_PRIMARY.rawValue)
    /// `PB_RANK_SECONDARY`, 128: what a fetcher that declares nothing gets.
    package static let secondary = SourceRank(PB_RANK_SECONDARY.rawValue)
    /// `PB_RANK_MARGINAL`, 64.
    package static let marginal = SourceRank(PB_RANK_MARGINAL.rawValue)
    /// `PB_RANK_NONE`, 0: never asked unless named.
    package static let none = SourceRank(PB_RANK_NONE.rawValue)

    package static func < (left: SourceRank, right: SourceRank) -> Bool {
        left.value < right.value
    }

    /// The value, e.g. `256`.
    package var description: String { "\(value)" }
}
