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

    @Test("Without api_base_url the plugin refuses to load, and says why")
    func missingBaseURL() {
        let host = RecordingHost(configuration: ["symbols": #"["ETH"]"#])
        #expect(TestPlugin.register(with: host) == PB_ERR_PLUGIN_FAILED)
        #expect(host.registrations.isEmpty)
        #expect(host.logLines.contains { $0.hasPrefix("TestPlugin needs the configuration value api_base_url") })
    }
}
