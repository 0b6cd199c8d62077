import Foundation

/// `Tests/Fixtures/ABIRules/cases.json`: the cases of the rules
/// `patchbay_plugin.h` writes once for both sides. PluginHostTests reads the
/// same file, so the SDK and the host are held to the same answers.
struct ABIRuleFixture: Decodable {
    struct Symbols: Decodable {
        let valid: [String]
        let invalid: [String]
    }

    /// A duration, as `Duration.components` gives it, and its `timeout_ms`.
    struct Timeout: Decodable {
        let about: String
        let seconds: Int64
        let attoseconds: Int64
        let milliseconds: UInt32

        var duration: Duration { Duration(secondsComponent: seconds, attosecondsComponent: attoseconds) }
    }

    let symbols: Symbols
    let timeouts: [Timeout]

    static func load() throws -> ABIRuleFixture {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try JSONDecoder().decode(ABIRuleFixture.self, from: Data(contentsOf: root.appending(path: "Fixtures/ABIRules/cases.json")))
    }
}
