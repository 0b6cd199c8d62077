import Foundation
import Patchbay
@testable import PluginHost
import Testing

/// The registry is one Patchbay container: each symbol's providers are ranked registrations in it, filled once.
@Suite("The registry is the container")
struct RegistryContainerTests {
    static func plugin(_ name: String, _ voucher: Placement.Voucher = .bundled) -> PluginIdentity {
        PluginIdentity(name: name, version: "1.0.0", path: "/plugins/lib\(name).so", voucher: voucher)
    }

    static func eth(_ rank: SourceRank) -> [SymbolProviders.Fetcher] {
        [SymbolProviders.Fetcher(symbol: "ETH", displayName: "Ethereum", declared: rank)]
    }

    @Test("The container's resolve and resolveAll give the order fetch asks: vouched first, then rank, then search order")
    func containerOrderIsFetchOrder() throws {
        var providers = SymbolProviders(overrides: try RankOverrides(parsing: "Demoted:1"))
        providers.add(plugin: Self.plugin("Off"), voucher: .bundled, fetchers: Self.eth(.none))
        providers.add(plugin: Self.plugin("Stranger", .nobody), voucher: .nobody, fetchers: Self.eth(SourceRank(1000)))
        providers.add(plugin: Self.plugin("Demoted"), voucher: .trustStore(path: "/trusted"), fetchers: Self.eth(.primary))
        providers.add(plugin: Self.plugin("Second"), voucher: .bundled, fetchers: Self.eth(.secondary))
        providers.add(plugin: Self.plugin("Top"), voucher: .allowlist(path: "/allowed"), fetchers: Self.eth(SourceRank(UInt32.max)))
        providers.add(plugin: Self.plugin("AlsoSecond"), voucher: .bundled, fetchers: Self.eth(.secondary))

        let listed = try providers.container.resolveAll(SymbolProviders.Provider.self, name: "ETH")
        #expect(listed.map(\.plugin.name) == ["Top", "Second", "AlsoSecond", "Demoted", "Stranger", "Off"])
        #expect(listed.map(\.plugin.name) == providers.providers(of: "ETH").map(\.plugin.name))
        #expect(try providers.container.resolve(SymbolProviders.Provider.self, name: "ETH") == providers.first(for: "ETH"))
        #expect(providers.symbols == ["ETH"])
    }

    @Test("A vouched plugin's lowest rank still comes before a stranger's highest; rank 0 is last")
    func registrationRankEncodesTheGroups() {
        var providers = SymbolProviders()
        providers.add(plugin: Self.plugin("Low"), voucher: .bundled, fetchers: Self.eth(SourceRank(1)))
        providers.add(plugin: Self.plugin("Stranger", .nobody), voucher: .nobody, fetchers: Self.eth(.secondary))
        providers.add(plugin: Self.plugin("Off"), voucher: .bundled, fetchers: Self.eth(.none))
        let ranks = providers.providers(of: "ETH").map(SymbolProviders.registrationRank)
        #expect(ranks == ranks.sorted(by: >))
        #expect(ranks.last == 0)
        #expect(providers.providers(of: "ETH").map(\.plugin.name) == ["Low", "Stranger", "Off"])
    }

    @Test("The container is filled once, when the plugins are known: fetching registers nothing more")
    func filledOnce() throws {
        let bundled = ["Bitcoin", "Ethereum", "Bitstamp"].map { FixturePlugins.bundledPlugin($0).path }
        let registry = FetcherRegistry(PluginLoader(services: .simulated(SimulatedNetworking([:]))).load(bundled).fetchers)
        let container = registry.providers.container
        let before = container.registrations()
        #expect(before.contains { $0.serviceType == SymbolProviders.Provider.self })
        let sources = try registry.sources(for: "eth", named: nil)
        #expect(sources.map(\.plugin.name) == ["EthereumPlugin", "BitstampPlugin"])
        #expect(sources.map(\.plugin.name) == registry.providers.asked(for: "ETH").map(\.plugin.name))
        _ = try registry.sources(for: "BTC", named: bundled[2])
        _ = registry.graph(.dot)
        #expect(container.registrations() == before)
    }
}
