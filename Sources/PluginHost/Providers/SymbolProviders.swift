import Patchbay

/// Registers plugins' fetchers in the registry, a Patchbay container, with
/// the rank that puts each symbol's providers in the order `fetch` asks
/// them. The one place that rule lives; every way of learning what plugins
/// provide (loading in-process or in workers, scanning, the scan cache,
/// loading on demand) reports here, and every fetch and listing asks the
/// container it fills.
///
/// Each provider is a ranked registration of ``Provider`` under its symbol
/// (see ``registrationRank(_:)``), so the container's `resolveAll(_:name:)`
/// is the answer to "who provides ETH, in what order", and its `resolve` the
/// source asked first.
///
/// Every vouched provider is asked before every stranger, whatever the
/// ranks: a user who demotes a vouched plugin below a stranger's rank does
/// not hand the stranger its place. Within each group the order is
/// GStreamer's: highest rank first, then search order (the order the
/// plugins were added in) among equal ranks. A plugin's rank is the user's
/// (`HOST_RANKS`, by name for a vouched plugin, by file for any) when
/// given, else what its fetcher declares; a plugin nobody vouched for is
/// then held to ``SourceRank/secondary``, after any override, so that a
/// stranger cannot put itself before the sources the user trusts, not even
/// by declaring a vouched plugin's name. A provider at rank 0 is never
/// asked unless the user names it.
///
/// ```swift
/// var providers = SymbolProviders(overrides: try RankOverrides(parsing: "BitstampPlugin:300"))
/// providers.add(plugin: coinbase, voucher: .bundled, fetchers: [.init(symbol: "ETH", displayName: "Ethereum", declared: .primary)])
/// providers.add(plugin: bitstamp, voucher: .bundled, fetchers: [.init(symbol: "ETH", displayName: "Ethereum", declared: .secondary)])
/// providers.asked(for: "ETH").map(\.plugin.name)   // ["BitstampPlugin", "EthereumPlugin"]
/// ```
package struct SymbolProviders: Sendable {
    /// One plugin's fetcher for one symbol, and where it stands.
    package struct Provider: Sendable, Equatable {
        /// The plugin.
        package let plugin: PluginIdentity
        /// The symbol, e.g. "ETH".
        package let symbol: String
        /// Its display name, e.g. "Ethereum".
        package let displayName: String
        /// The rank its order comes from.
        package let rank: SourceRank
        /// The rank its fetcher declares, before the user's and the cap.
        package let declared: SourceRank
        /// Why it has that rank.
        package let rankOrigin: RankOrigin
        /// Who vouched for its plugin: a vouched provider is asked before
        /// every stranger, and only vouched answers make a consensus.
        package let voucher: Placement.Voucher
        /// Its plugin's place in search order.
        let searchIndex: Int

        /// Whether someone vouched for its plugin.
        package var isVouched: Bool { voucher != .nobody }
    }

    /// Where a provider's rank comes from.
    package enum RankOrigin: String, Sendable, Equatable {
        /// The plugin's fetcher declares it (or declares none: secondary).
        case declared
        /// The plugin declares more, or the user ranked it higher, and nobody
        /// vouched for it: secondary.
        case capped
        /// The user's `HOST_RANKS`.
        case overridden

        /// Why the rank is not the declared one, as `list-fetchers` and
        /// `inspect` print it; nil when it is the declared one.
        package var reason: String? {
            switch self {
            case .declared: nil
            case .capped: "capped: nobody vouched for it"
            case .overridden: "HOST_RANKS"
            }
        }
    }

    /// A fetcher as a plugin registered it.
    package struct Fetcher: Sendable, Equatable {
        /// The symbol.
        package let symbol: String
        /// Its display name.
        package let displayName: String
        /// The rank the plugin declares; ``SourceRank/secondary`` when it declares none.
        package let declared: SourceRank

        /// A fetcher as registered.
        package init(symbol: String, displayName: String, declared: SourceRank) {
            self.symbol = symbol
            self.displayName = displayName
            self.declared = declared
        }
    }

    private let overrides: RankOverrides
    /// The registry the providers are registered in. A reference: copies of
    /// this value share it, so add through one of them.
    package let container: Container
    private var added = 0
    /// Every symbol registered: the container's own listing sorts every registration by its description, far slower.
    private var registeredSymbols: Set<String> = []

    /// No providers yet.
    /// - Parameters:
    ///   - overrides: The user's ranks, by plugin name.
    ///   - container: The registry to register providers in.
    package init(overrides: RankOverrides = RankOverrides(), container: Container = Container(defaultScope: .singleton)) {
        self.overrides = overrides
        self.container = container
    }

    /// Adds a plugin's fetchers, after every plugin added before it in search order.
    /// - Parameters:
    ///   - plugin: The plugin.
    ///   - voucher: Who vouched for it: anyone but nobody has its declared
    ///     ranks believed in full, the user's ranks by name, and is asked
    ///     before every stranger.
    ///   - fetchers: What it registered, one fetcher per symbol.
    /// - Complexity: O(*p*) per fetcher, for *p* providers of its symbol, to register it beside them.
    package mutating func add(plugin: PluginIdentity, voucher: Placement.Voucher, fetchers: [Fetcher]) {
        let searchIndex = added
        added += 1
        let plugin = PluginIdentity(name: plugin.name, version: plugin.version, path: plugin.path, voucher: voucher)
        let wanted = overrides.rank(for: plugin)
        for fetcher in fetchers {
            let (rank, origin) = Self.believedRank(declared: fetcher.declared, wanted: wanted, voucher: voucher)
            let provider = Provider(
                plugin: plugin, symbol: fetcher.symbol, displayName: fetcher.displayName, rank: rank, declared: fetcher.declared, rankOrigin: origin,
                voucher: voucher, searchIndex: searchIndex)
            container.register(Provider.self, name: fetcher.symbol, rank: Self.registrationRank(provider)) { _ in provider }
            registeredSymbols.insert(fetcher.symbol)
        }
    }

    /// The rank a fetcher gets: the user's, else what it declares; then, for
    /// a plugin nobody vouched for, capped. The one rule: `inspect` asks it
    /// too, to show the rank a file would get.
    /// - Parameters:
    ///   - declared: What the fetcher declares.
    ///   - wanted: The user's rank for its plugin (``RankOverrides/rank(for:)``), if any.
    ///   - voucher: Who vouched for its plugin.
    /// - Returns: The rank, and why it is that one.
    package static func believedRank(declared: SourceRank, wanted: SourceRank?, voucher: Placement.Voucher) -> (SourceRank, RankOrigin) {
        let rank = wanted ?? declared
        if voucher == .nobody, rank > .secondary { return (.secondary, .capped) }
        return (rank, wanted == nil ? .declared : .overridden)
    }

    /// The rank a provider is registered with, so that the container's
    /// order (highest first, then registration order, which is search order)
    /// is the order `fetch` asks: those at rank 0 (never asked unless named)
    /// last; among the others, every vouched provider before every stranger,
    /// then by rank.
    package static func registrationRank(_ provider: Provider) -> Int {
        guard provider.rank > .none else { return 0 }
        // A rank is a UInt32, below 1 << 32: the group decides, then the rank.
        return (provider.isVouched ? 1 << 33 : 1 << 32) + Int(provider.rank.value)
    }

    /// Every symbol provided, sorted.
    package var symbols: [String] { registeredSymbols.sorted() }

    /// Every provider of `symbol`, in the order of rank, then search order,
    /// those at rank 0 included; empty for a symbol nobody provides.
    package func providers(of symbol: String) -> [Provider] {
        // NB: every registration returns the value it captured, so resolving cannot fail.
        (try? container.resolveAll(Provider.self, name: symbol).services) ?? []
    }

    /// The providers `fetch` asks for `symbol`, in order: all but those at rank 0.
    package func asked(for symbol: String) -> [Provider] {
        providers(of: symbol).filter { $0.rank > .none }
    }

    /// The provider `fetch` asks first for `symbol`, if any.
    package func first(for symbol: String) -> Provider? {
        providers(of: symbol).first { $0.rank > .none }
    }

    /// Every provider of every symbol: symbols sorted, each symbol's providers in order.
    package var all: [Provider] {
        symbols.flatMap { providers(of: $0) }
    }
}
