import Foundation
import PluginHost
import Testing

@Suite("Loading the real plugin libraries in-process", .timeLimit(.minutes(10)))
struct PluginLoaderTests {
    let bundled = ["Bitcoin", "Ethereum"].map { FixturePlugins.bundledPlugin($0).path }

    @Test("The bundled Bitcoin and Ethereum plugins register BTC and ETH")
    func bundledPluginsRegister() {
        let loader = PluginLoader(services: .simulated(SimulatedNetworking([:])))
        let result = loader.load(bundled)
        #expect(result.reports.map(\.status) == [.loaded, .loaded])
        #expect(result.reports.map(\.name) == ["BitcoinPlugin", "EthereumPlugin"])
        #expect(result.fetchers.map(\.symbol) == ["BTC", "ETH"])
        #expect(result.fetchers.map(\.displayName) == ["Bitcoin", "Ethereum"])
    }

    @Test("A fetch goes through the host's networking and keeps the amount's exact text")
    func fetchThroughInjectedNetworking() async throws {
        let networking = SimulatedNetworking(["/v2/prices/ETH-EUR/spot": SimulatedNetworking.spot("ETH", "EUR", "2718.281828459045235360287")])
        let loaded = Host(discovery: PluginDiscovery(locations: []), services: .simulated(networking))
        let registry = FetcherRegistry(PluginLoader(services: loaded.services).load(bundled).fetchers)

        let quote = try await Deadline.within(.seconds(120), "ETH's price") {
            try await registry.fetcher(for: "eth").price(in: "EUR", timeout: .seconds(60))
        }.get()

        #expect(quote.amount == "2718.281828459045235360287")
        #expect(quote.currency == "EUR")
        #expect(quote.plugin.name == "EthereumPlugin")
        #expect(networking.requestedURLs == ["http://prices.test/v2/prices/ETH-EUR/spot"])
    }

    @Test("An API error reaches the caller with its status and message")
    func apiErrorSurfaces() async throws {
        let body = #"{"errors":[{"id":"not_found","message":"Invalid base currency"}]}"#
        let networking = SimulatedNetworking(["/v2/prices/BTC-USD/spot": .response(status: 404, body: Array(body.utf8))])
        let registry = FetcherRegistry(PluginLoader(services: .simulated(networking)).load(bundled).fetchers)

        let result = try await Deadline.within(.seconds(120), "BTC's price") {
            try await registry.fetcher(for: "BTC").price(in: "USD", timeout: .seconds(60))
        }

        let error = try #require(result.failureValue)
        #expect(error.message.contains("404"))
        #expect(error.message.contains("Invalid base currency"))
    }

    @Test("A plugin written in plain C loads and fetches through the same ABI")
    func cPluginWorks() async throws {
        let networking = SimulatedNetworking(["/v2/prices/DOGE-USD/spot": SimulatedNetworking.spot("DOGE", "USD", "0.1234")])
        let result = PluginLoader(services: .simulated(networking)).load([try await FixturePlugins.library(.cPlugin).path])
        #expect(result.reports.first?.name == "CDogecoinPlugin")
        let registry = FetcherRegistry(result.fetchers)

        let quote = try await Deadline.within(.seconds(120), "DOGE's price") {
            try await registry.fetcher(for: "DOGE").price(in: "USD", timeout: .seconds(60))
        }.get()

        #expect(quote.amount == "0.1234")
        #expect(quote.base == "DOGE")
        #expect(quote.plugin.name == "CDogecoinPlugin")
    }

    /// A plugin built against another revision of the header, whose
    /// descriptor declares `size` bytes instead of at least the first revision's 40.
    static func descriptor(ofSize size: Int) -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(
            fileName: "descriptor-of-\(size)-bytes.so", source: "Tests/Fixtures/CPlugins/descriptor_size.c",
            defines: ["-DFIXTURE_STRUCT_SIZE=\(size)", "-DFIXTURE_NAME=\"OlderDescriptorPlugin\"", "-DFIXTURE_SYMBOL=\"OLDER\""])
    }

    /// A plugin from a later minor revision: its descriptor is this header's
    /// followed by fields the host does not know, and declares the larger size.
    static let futureDescriptor = FixturePlugins.Fixture(
        fileName: "future-descriptor.so", source: "Tests/Fixtures/CPlugins/descriptor_size.c",
        defines: ["-DFIXTURE_FUTURE_DESCRIPTOR", "-DFIXTURE_NAME=\"FutureDescriptorPlugin\"", "-DFIXTURE_SYMBOL=\"FUTURE\""])

    /// The refusal of a descriptor that declares `size` bytes, where
    /// the first revision's descriptor is 40 bytes on every 64-bit target.
    static func descriptorTooSmall(_ size: Int) -> String {
        "incompatible plugin ABI: descriptor struct_size is \(size) bytes, the host needs at least 40; rebuild the plugin against this host's patchbay_plugin.h"
    }

    @Test("A descriptor smaller than the first revision's is refused before any of its fields is read", arguments: [0, 12, 32, 39])
    func smallerDescriptorIsRefused(size: Int) async throws {
        let path = try await FixturePlugins.library(Self.descriptor(ofSize: size)).path

        let result = PluginLoader(services: .simulated(SimulatedNetworking([:]))).load([path])

        let report = try #require(result.reports.first)
        #expect(report.status == .failed)
        #expect(report.error == Self.descriptorTooSmall(size))
        #expect(result.fetchers.isEmpty)
    }

    @Test("A descriptor larger than this header's, from a later minor revision, loads and fetches")
    func largerDescriptorLoads() async throws {
        let path = try await FixturePlugins.library(Self.futureDescriptor).path

        let result = PluginLoader(services: .simulated(SimulatedNetworking([:]))).load([path])

        #expect(result.reports.map(\.status) == [.loaded], "\(result.reports.map { $0.error ?? "" })")
        #expect(result.reports.map(\.name) == ["FutureDescriptorPlugin"])
        let registry = FetcherRegistry(result.fetchers)
        let quote = try await Deadline.within(.seconds(120), "FUTURE's price") {
            try await registry.fetcher(for: "FUTURE").price(in: "EUR", timeout: .seconds(60))
        }.get()
        #expect(quote.amount == "4.00")
        #expect(quote.currency == "EUR")
    }

    @Test("An unknown symbol names the ones that exist")
    func unknownSymbol() throws {
        let registry = FetcherRegistry(PluginLoader(services: .simulated(SimulatedNetworking([:]))).load(bundled).fetchers)
        #expect(throws: FetchError.self) { try registry.fetcher(for: "XRP") }
        do {
            _ = try registry.fetcher(for: "XRP")
        } catch {
            #expect(error.message == "unknown symbol XRP; available symbols: BTC, ETH")
            #expect(error.isUnknownSymbol)
        }
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
