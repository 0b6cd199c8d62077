/// The user's ranks for plugins: `HOST_RANKS=PLUGIN:RANK,…`, as GStreamer's
/// `GST_PLUGIN_FEATURE_RANK=name:rank,…`.
///
/// `PLUGIN` is a ``PluginSelector``: a name ranks only the vouched plugins
/// of that name, and a path with a `/` ranks the plugin of that file.
///
/// A rank is a number from 0 to 4294967295, or one of the header's names
/// in any case: `primary` (256), `secondary` (128), `marginal` (64),
/// `none` (0). A plugin at rank 0 is never asked unless named with
/// `--source`.
///
/// ```swift
/// let overrides = try RankOverrides(parsing: "BitstampPlugin:primary,EthereumPlugin:0")
/// overrides["EthereumPlugin"]   // SourceRank.none
/// ```
package struct RankOverrides: Sendable, Equatable {
    private var ranks: [String: SourceRank]
    /// The entries that name a file, by ``PluginSelector``.
    private var byFile: [PluginSelector: SourceRank] = [:]

    /// No overrides: every plugin keeps the rank the host believes it declares.
    package init() {
        ranks = [:]
    }

    /// Reads `PLUGIN:RANK` entries separated by commas; spaces around an
    /// entry, and empty entries, are ignored.
    /// - Throws: ``RankOverrideError`` for the first entry that is not
    ///   `PLUGIN:RANK`, or that ranks a plugin twice.
    package init(parsing text: String) throws(RankOverrideError) {
        ranks = [:]
        for part in text.split(separator: ",") {
            var entry = part
            while entry.first == " " { entry.removeFirst() }
            while entry.last == " " { entry.removeLast() }
            if entry.isEmpty { continue }
            guard let colon = entry.lastIndex(of: ":"), colon != entry.startIndex else {
                throw RankOverrideError(entry: String(entry), .notAnEntry)
            }
            let plugin = String(entry[..<colon])
            guard let rank = Self.rank(String(entry[entry.index(after: colon)...])) else {
                throw RankOverrideError(entry: String(entry), .notARank)
            }
            guard ranks[plugin] == nil else { throw RankOverrideError(entry: String(entry), .repeated(plugin)) }
            ranks[plugin] = rank
            let selector = PluginSelector(plugin)
            if selector.isFile { byFile[selector] = rank }
        }
    }

    /// The user's rank for the plugin of that descriptor name, if any.
    package subscript(plugin: String) -> SourceRank? {
        ranks[plugin]
    }

    /// The user's rank for `plugin`: by its file, else by its name when
    /// someone vouched for it. A name never ranks a plugin nobody vouched
    /// for, whatever name it declares.
    package func rank(for plugin: PluginIdentity) -> SourceRank? {
        for (selector, rank) in byFile where selector.matches(plugin) { return rank }
        guard plugin.isVouched else { return nil }
        return ranks[plugin.name]
    }

    /// The plugins the user ranked, sorted by name.
    package var plugins: [String] { ranks.keys.sorted() }

    private static func rank(_ text: String) -> SourceRank? {
        switch text.lowercased() {
        case "primary": .primary
        case "secondary": .secondary
        case "marginal": .marginal
        case "none": SourceRank.none
        default: text.allSatisfy(\.isASCII) ? UInt32(text).map(SourceRank.init) : nil
        }
    }
}

/// Why `HOST_RANKS` cannot be read.
package struct RankOverrideError: Error, Sendable, Equatable {
    /// The entry that is wrong, as given.
    package let entry: String
    /// What is wrong with it.
    package let kind: Kind

    /// What is wrong with an entry.
    package enum Kind: Sendable, Equatable {
        /// Not `PLUGIN:RANK`.
        case notAnEntry
        /// The part after the last `:` is not a rank.
        case notARank
        /// The plugin is ranked twice.
        case repeated(String)
    }

    init(entry: String, _ kind: Kind) {
        self.entry = entry
        self.kind = kind
    }

    /// One line naming the setting and the entry, and the fix.
    /// - Parameter source: What set it, e.g. `HOST_RANKS`.
    package func message(naming source: String) -> String {
        let example = "e.g. \(source)=BitstampPlugin:primary,EthereumPlugin:0"
        return switch kind {
        case .notAnEntry: "\(source) has '\(entry)', which is not PLUGIN:RANK; separate entries with commas, \(example)"
        case .notARank:
            "\(source) has '\(entry)', whose rank is not a number from 0 to 4294967295 nor primary, secondary, marginal or none; \(example)"
        case .repeated(let plugin): "\(source) ranks \(plugin) twice; give each plugin one rank, \(example)"
        }
    }
}

