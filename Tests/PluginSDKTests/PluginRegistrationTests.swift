import Foundation
import PluginABI
import Testing

@testable import PluginSDK

/// What the SDK registers with a host, through the C table a host hands it.
@Suite("Registering a plugin's fetchers")
struct PluginRegistrationTests {
    @Test("The SDK registers the symbols the host accepts, and skips with a logged reason the ones it refuses")
    func symbolRule() throws {
        let cases = try ABIRuleFixture.load().symbols
        let symbols = String(decoding: try JSONEncoder().encode(cases.valid + cases.invalid), as: UTF8.self)
        let host = RecordingHost(configuration: ["api_base_url": "https://api.example.com", "symbols": symbols])
        #expect(TestPlugin.register(with: host) == PB_OK)
        #expect(host.registrations.map(\.symbol) == cases.valid)
        let skipped = host.logLines.filter { $0.hasPrefix("TestPlugin skipped a fetcher with symbol") }
        #expect(skipped.count == cases.invalid.count)
        #expect(skipped.first == #"TestPlugin skipped a fetcher with symbol "": a symbol must be 1 to 16 upper-case ASCII letters or digits, e.g. ETH"#)
    }

    @Test("The SDK's symbol check is the header's", arguments: ["ETH", "eth", "", "ABCDEFGHIJKLMNOPQ", "ET\u{0}H"])
    func symbolCheckIsTheHeaders(symbol: String) {
        let bytes = Array(symbol.utf8).map { CChar(bitPattern: $0) }
        #expect(PluginRegistration.isValidSymbol(symbol) == pb_symbol_is_valid(bytes, bytes.count))
    }

    @Test("Every fetcher carries the plugin's rank, and the descriptor its default API base")
    func rankAndBase() throws {
        let host = RecordingHost(configuration: ["api_base_url": "https://api.example.com", "symbols": #"["ETH","BTC"]"#])
        #expect(TestPlugin.register(with: host) == PB_OK)
        #expect(host.registrations.map(\.rank) == [PB_RANK_PRIMARY.rawValue, PB_RANK_PRIMARY.rawValue])
        let base = try #require(TestPlugin.descriptor.pointee.api_base_url)
        #expect(String(cString: base) == "https://api.example.com")
        #expect(TestPlugin.descriptor.pointee.struct_size == UInt32(MemoryLayout<pb_plugin_descriptor>.size))
    }

    @Test("The header reads a rank only when struct_size covers it and has_rank says it is set")
    func headerRankRule() {
        let fetch: pb_fetch_fn = { _, _, _, _ in }
        var declared = pb_fetcher(struct_size: UInt32(MemoryLayout<pb_fetcher>.size), symbol: nil, display_name: nil, context: nil,
                                  fetch: fetch, rank: PB_RANK_NONE.rawValue, has_rank: true)
        #expect(pb_fetcher_rank(&declared) == PB_RANK_NONE.rawValue)
        // A zero-initialised, rebuilt plugin: has_rank false, so not PB_RANK_NONE.
        var unset = declared
        unset.has_rank = false
        #expect(pb_fetcher_rank(&unset) == PB_RANK_SECONDARY.rawValue)
        // A plugin built before ranks: its struct ends at `fetch`, whatever follows in memory.
        var old = declared
        old.struct_size = UInt32(MemoryLayout<pb_fetcher>.offset(of: \.rank)!)
        old.rank = PB_RANK_PRIMARY.rawValue
        #expect(pb_fetcher_rank(&old) == PB_RANK_SECONDARY.rawValue)
    }

    @Test("Without api_base_url the plugin refuses to load, and says why")
    func missingBaseURL() {
        let host = RecordingHost(configuration: ["symbols": #"["ETH"]"#])
        #expect(TestPlugin.register(with: host) == PB_ERR_PLUGIN_FAILED)
        #expect(host.registrations.isEmpty)
        #expect(host.logLines.contains { $0.hasPrefix("TestPlugin needs the configuration value api_base_url") })
    }
}
