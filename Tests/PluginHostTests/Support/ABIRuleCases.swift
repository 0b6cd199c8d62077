import Foundation
import Testing

/// The cases of the rules `patchbay_plugin.h` writes once for both sides,
/// from `Tests/Fixtures/ABIRules/cases.json`: PluginSDKTests reads the same
/// file, so the host and the SDK are held to the same answers.
struct ABIRuleCases: Decodable {
    struct Symbols: Decodable {
        let valid: [String]
        let invalid: [String]
    }

    /// A duration, as `Duration.components` gives it, and its `timeout_ms`.
    struct Timeout: Decodable, CustomTestStringConvertible {
        let about: String
        let seconds: Int64
        let attoseconds: Int64
        let milliseconds: UInt32

        var duration: Duration { Duration(secondsComponent: seconds, attosecondsComponent: attoseconds) }
        var testDescription: String { about }
    }

    let symbols: Symbols
    let timeouts: [Timeout]

    static func load() throws -> ABIRuleCases {
        let file = FixturePlugins.repositoryRoot.appending(path: "Tests/Fixtures/ABIRules/cases.json")
        return try JSONDecoder().decode(ABIRuleCases.self, from: Data(contentsOf: file))
    }
}
