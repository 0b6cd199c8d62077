import Patchbay
@testable import PluginHost
import Testing

/// `host graph` draws the container `fetch` asks, as its `verify()` sees
/// it: each symbol's providers in the container's order, byte for byte as
/// the command prints them.
@Suite("The graph is the fetch container's")
struct RegistryGraphTests {
    /// The bundled plugins' registry, vouched for as bundled, with the user's ranks.
    static func registry(ranks: String = "") throws -> FetcherRegistry {
        let bundled = ["Bitcoin", "Ethereum", "Bitstamp"].map { FixturePlugins.bundledPlugin($0).path }
        let loader = PluginLoader(services: .simulated(SimulatedNetworking([:])), voucher: { _ in .bundled })
        let fetchers = loader.load(bundled).fetchers
        return FetcherRegistry(fetchers, ranks: try RankOverrides(parsing: ranks))
    }

    @Test("Each symbol's first source is the symbol, the next ones #2 and on; each depends on its plugin and the next one asked")
    func mermaidOfTheBundledPlugins() throws {
        #expect(try Self.registry().graph(.mermaid) == """
            graph LR
              n0["PluginFetcher(name: #quot;BTC #2#quot;)<br/>(singleton)"]
              n1["PluginFetcher(name: #quot;BTC#quot;)<br/>(singleton)"]
              n2["PluginFetcher(name: #quot;ETH #2#quot;)<br/>(singleton)"]
              n3["PluginFetcher(name: #quot;ETH#quot;)<br/>(singleton)"]
              n4["PluginIdentity(name: #quot;BitcoinPlugin#quot;)<br/>(singleton)"]
              n5["PluginIdentity(name: #quot;BitstampPlugin#quot;)<br/>(singleton)"]
              n6["PluginIdentity(name: #quot;EthereumPlugin#quot;)<br/>(singleton)"]
              n0 --> n5
              n1 --> n0
              n1 --> n4
              n2 --> n5
              n3 --> n2
              n3 --> n6

            """)
    }

    @Test("A source at rank 0 is drawn, but nothing depends on it: fetch does not ask it")
    func rankZeroIsNotAsked() throws {
        #expect(try Self.registry(ranks: "BitstampPlugin:0").graph(.dot) == #"""
            digraph Patchbay {
              rankdir=LR;
              node [shape=box];
              n0 [label="PluginFetcher(name: \"BTC #2\")\n(singleton)"];
              n1 [label="PluginFetcher(name: \"BTC\")\n(singleton)"];
              n2 [label="PluginFetcher(name: \"ETH #2\")\n(singleton)"];
              n3 [label="PluginFetcher(name: \"ETH\")\n(singleton)"];
              n4 [label="PluginIdentity(name: \"BitcoinPlugin\")\n(singleton)"];
              n5 [label="PluginIdentity(name: \"BitstampPlugin\")\n(singleton)"];
              n6 [label="PluginIdentity(name: \"EthereumPlugin\")\n(singleton)"];
              n0 -> n5;
              n1 -> n4;
              n2 -> n5;
              n3 -> n6;
            }

            """#)
    }

    @Test("Every source of a symbol at rank 0: none is the symbol itself, each is its place (#1, #2)")
    func everySourceAtRankZero() throws {
        let graph = try Self.registry(ranks: "BitstampPlugin:0,EthereumPlugin:0").graph(.dot)
        #expect(graph.contains(#"[label="PluginFetcher(name: \"ETH #1\")\n(singleton)"]"#), "\(graph)")
        #expect(graph.contains(#"[label="PluginFetcher(name: \"ETH #2\")\n(singleton)"]"#), "\(graph)")
        #expect(!graph.contains(#"PluginFetcher(name: \"ETH\")"#), "\(graph)")
    }

    @Test("The places drawn are the fetch container's providers, one for each, and drawing registers nothing in it")
    func drawnFromTheFetchContainer() throws {
        let registry = try Self.registry()
        let before = registry.providers.container.registrations()
        let graph = registry.graph(.dot)
        #expect(graph.split(separator: "\n").count { $0.contains("PluginFetcher(name:") } == registry.providers.all.count)
        #expect(registry.providers.container.registrations() == before)
    }
}
