import PluginBoundary
import Testing

@testable import PluginHost

/// The URL length cap at its limit and one byte past it: 8,192 bytes are
/// checked and fetched, 8,193 are refused before they are parsed.
extension HostServicesPolicyTests {
    @Test("A URL of 8,192 bytes is fetched; one of 8,193 is refused for its length, before any networking", arguments: [8192, 8193])
    func urlLengthAtItsLimit(bytes: Int) async {
        let base = "http://h.test/v2/"
        let url = base + String(repeating: "a", count: bytes - base.utf8.count)
        let networking = ScriptedNetworking([url: Self.ok])
        let warnings = Warnings()

        let outcome = await services(networking, warnings).get(url, timeout: .seconds(30), for: "P")

        if bytes <= URLPolicy.maximumLength {
            #expect(outcome == .response(status: 200, body: Array("ok".utf8)))
            #expect(networking.requested == [url])
        } else {
            #expect(outcome == .failure("refused http_get of \(PluginOutputRules.echoed(url)): it is 8193 bytes long, and a URL may be at most 8192"))
            #expect(networking.requested.isEmpty)
        }
    }
}
