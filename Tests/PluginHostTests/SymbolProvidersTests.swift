@testable import PluginHost
import Testing

/// The one rule for who provides what: rank first, then search order.
@Suite("Who provides what")
struct SymbolProvidersTests {
    static func plugin(_ name: String) -> PluginIdentity {
        PluginIdentity(name: name, version: "1.0.0", path: "/plugins/lib\(name).so", voucher: .bundled)
    }

    static func eth(_ rank: SourceRank) -> [SymbolProviders.Fetcher] {
        [SymbolProviders.Fetcher(symbol: "ETH", displayName: "Ethereum", declared: rank)]
    }

    @Test("Higher rank first, then search order among equal ranks")
    func order() {
        var providers = SymbolProviders()
        providers.add(plugin: Self.plugin("A"), voucher: .bundled, fetchers: Self.eth(.secondary))
        providers.add(plugin: Self.plugin("B"), voucher: .bundled, fetchers: Self.eth(.primary))
        providers.add(plugin: Self.plugin("C"), voucher: .bundled, fetchers: Self.eth(.secondary))
        providers.add(plugin: Self.plugin("D"), voucher: .bundled, fetchers: Self.eth(.marginal))
        providers.add(plugin: Self.plugin("E"), voucher: .bundled, fetchers: Self.eth(SourceRank(257)))
        #expect(providers.asked(for: "ETH").map(\.plugin.name) == ["E", "B", "A", "C", "D"])
        #expect(providers.first(for: "ETH")?.plugin.name == "E")
    }

    @Test("Rank 0 is listed but never asked unless named")
    func rankNone() {
        var providers = SymbolProviders()
        providers.add(plugin: Self.plugin("Off"), voucher: .bundled, fetchers: Self.eth(.none))
        providers.add(plugin: Self.plugin("On"), voucher: .bundled, fetchers: Self.eth(.marginal))
        #expect(providers.providers(of: "ETH").map(\.plugin.name) == ["On", "Off"])
        #expect(providers.asked(for: "ETH").map(\.plugin.name) == ["On"])

        var alone = SymbolProviders()
        alone.add(plugin: Self.plugin("Off"), voucher: .bundled, fetchers: Self.eth(.none))
        #expect(alone.first(for: "ETH") == nil)
        #expect(alone.providers(of: "ETH").count == 1)
    }

    @Test("A plugin nobody vouched for is believed up to secondary")
    func cap() {
        var providers = SymbolProviders()
        providers.add(plugin: Self.plugin("Bundled"), voucher: .bundled, fetchers: Self.eth(.secondary))
        providers.add(plugin: Self.plugin("Stranger"), voucher: .nobody, fetchers: Self.eth(SourceRank(1000)))
        providers.add(plugin: Self.plugin("Modest"), voucher: .nobody, fetchers: Self.eth(.marginal))
        let asked = providers.asked(for: "ETH")
        #expect(asked.map(\.plugin.name) == ["Bundled", "Stranger", "Modest"])
        #expect(asked.map(\.rank) == [.secondary, .secondary, .marginal])
        #expect(asked.map(\.rankOrigin) == [.declared, .capped, .declared])
    }

    @Test("The user's ranks win over any declaration; a stranger is ranked by its file, and capped after")
    func overrides() throws {
        var providers = SymbolProviders(overrides: try RankOverrides(parsing: "/plugins/libStranger.so:primary, Bundled:0"))
        providers.add(plugin: Self.plugin("Bundled"), voucher: .bundled, fetchers: Self.eth(.primary))
        providers.add(plugin: Self.plugin("Stranger"), voucher: .nobody, fetchers: Self.eth(.marginal))
        providers.add(plugin: Self.plugin("Lower"), voucher: .nobody, fetchers: Self.eth(.marginal))
        #expect(providers.asked(for: "ETH").map(\.plugin.name) == ["Stranger", "Lower"])
        #expect(providers.providers(of: "ETH").map(\.rank) == [.secondary, .marginal, .none])
        #expect(providers.providers(of: "ETH").map(\.rankOrigin) == [.capped, .declared, .overridden])
        #expect(providers.providers(of: "ETH").map(\.voucher) == [.nobody, .nobody, .bundled])
    }

    @Test("A name ranks only vouched plugins of that name")
    func namesRankOnlyVouched() throws {
        var providers = SymbolProviders(overrides: try RankOverrides(parsing: "Bundled:300"))
        providers.add(plugin: Self.plugin("Primary"), voucher: .bundled, fetchers: Self.eth(.primary))
        providers.add(plugin: PluginIdentity(name: "Bundled", version: "1", path: "/plugins/libThief.so", voucher: .nobody), voucher: .nobody, fetchers: Self.eth(.secondary))
        #expect(providers.asked(for: "ETH").map(\.plugin.path) == ["/plugins/libPrimary.so", "/plugins/libThief.so"])
        #expect(providers.providers(of: "ETH").map(\.rankOrigin) == [.declared, .declared])
    }

    @Test("Every vouched provider is asked before every stranger, from every position in search order", arguments: 0..<4)
    func vouchedFirstFromEveryPosition(position: Int) {
        var providers = SymbolProviders()
        var strangers = 0
        for place in 0..<4 {
            if place == position {
                providers.add(plugin: Self.plugin("Vouched"), voucher: .trustStore(path: "/store"), fetchers: Self.eth(.marginal))
            } else {
                strangers += 1
                providers.add(plugin: Self.plugin("Stranger\(strangers)"), voucher: .nobody, fetchers: Self.eth(SourceRank(1000)))
            }
        }
        let asked = providers.asked(for: "ETH")
        #expect(asked.map(\.plugin.name) == ["Vouched", "Stranger1", "Stranger2", "Stranger3"])
        #expect(asked.map(\.isVouched) == [true, false, false, false])
    }

    @Test("A user who demotes a vouched plugin below the strangers' rank still has it asked before them; rank 0 stays unasked")
    func demotedVouchedStaysFirst() throws {
        var providers = SymbolProviders(overrides: try RankOverrides(parsing: "Coinbase:1, Off:0"))
        providers.add(plugin: Self.plugin("Stranger"), voucher: .nobody, fetchers: Self.eth(.secondary))
        providers.add(plugin: Self.plugin("Off"), voucher: .bundled, fetchers: Self.eth(.primary))
        providers.add(plugin: Self.plugin("Coinbase"), voucher: .bundled, fetchers: Self.eth(.primary))
        providers.add(plugin: Self.plugin("Bitstamp"), voucher: .allowlist(path: "/allow"), fetchers: Self.eth(.secondary))
        #expect(providers.providers(of: "ETH").map(\.plugin.name) == ["Bitstamp", "Coinbase", "Stranger", "Off"])
        #expect(providers.asked(for: "ETH").map(\.plugin.name) == ["Bitstamp", "Coinbase", "Stranger"])
        #expect(providers.providers(of: "ETH").map(\.voucher) == [.allowlist(path: "/allow"), .bundled, .nobody, .bundled])
    }

    @Test("Each symbol has its own order")
    func symbolsApart() {
        var providers = SymbolProviders()
        providers.add(plugin: Self.plugin("A"), voucher: .bundled, fetchers: [
            .init(symbol: "BTC", displayName: "Bitcoin", declared: .primary), .init(symbol: "ETH", displayName: "Ethereum", declared: .marginal),
        ])
        providers.add(plugin: Self.plugin("B"), voucher: .bundled, fetchers: [.init(symbol: "ETH", displayName: "Ether", declared: .secondary)])
        #expect(providers.symbols == ["BTC", "ETH"])
        #expect(providers.asked(for: "BTC").map(\.plugin.name) == ["A"])
        #expect(providers.asked(for: "ETH").map(\.plugin.name) == ["B", "A"])
        #expect(providers.all.map { "\($0.symbol) \($0.plugin.name)" } == ["BTC A", "ETH B", "ETH A"])
        #expect(providers.asked(for: "XRP").isEmpty)
    }

    @Test("HOST_RANKS takes numbers and the header's names", arguments: [
        ("A:256", "A", SourceRank.primary), ("A:PRIMARY", "A", .primary), ("A:secondary", "A", .secondary), ("A:Marginal", "A", .marginal),
        ("A:none", "A", .none), ("A:0", "A", .none), (" A:4294967295 ,", "A", SourceRank(4_294_967_295)), ("Name With:Colon:7", "Name With:Colon", SourceRank(7)),
    ])
    func rankTexts(text: String, plugin: String, rank: SourceRank) throws {
        #expect(try RankOverrides(parsing: text)[plugin] == rank)
    }

    @Test("A bad HOST_RANKS is one line naming the entry and the fix", arguments: [
        ("A", "HOST_RANKS has 'A', which is not PLUGIN:RANK; separate entries with commas, e.g. HOST_RANKS=BitstampPlugin:primary,EthereumPlugin:0"),
        (":5", "HOST_RANKS has ':5', which is not PLUGIN:RANK; separate entries with commas, e.g. HOST_RANKS=BitstampPlugin:primary,EthereumPlugin:0"),
        ("A:-1", "HOST_RANKS has 'A:-1', whose rank is not a number from 0 to 4294967295 nor primary, secondary, marginal or none; e.g. HOST_RANKS=BitstampPlugin:primary,EthereumPlugin:0"),
        ("A:4294967296", "HOST_RANKS has 'A:4294967296', whose rank is not a number from 0 to 4294967295 nor primary, secondary, marginal or none; e.g. HOST_RANKS=BitstampPlugin:primary,EthereumPlugin:0"),
        ("A:1,A:2", "HOST_RANKS ranks A twice; give each plugin one rank, e.g. HOST_RANKS=BitstampPlugin:primary,EthereumPlugin:0"),
    ])
    func badRanks(text: String, message: String) {
        #expect(throws: RankOverrideError.self) { try RankOverrides(parsing: text) }
        do {
            _ = try RankOverrides(parsing: text)
        } catch {
            #expect(error.message(naming: "HOST_RANKS") == message)
        }
    }
}
