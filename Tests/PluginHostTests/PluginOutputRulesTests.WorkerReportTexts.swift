import PluginBoundary
@testable import PluginHost
import Testing
import WorkerProtocol

/// Every text a worker's load report carries, at its cap and one byte past
/// it: the cap is in bytes, so the texts are two-byte characters, and the
/// one past it is a single ASCII byte more.
extension PluginOutputRulesTests {
    /// A load report carrying `text` in one place.
    typealias ReportWith = @Sendable (String) -> LoadReply

    static let plainMetadata = PluginMetadata(abiVersion: 1, descriptorSize: 80, description: nil, author: nil, license: nil, homepage: nil)

    static func descriptor(name: String = "W", version: String = "1", metadata: PluginMetadata = plainMetadata) -> LoadReply.Descriptor {
        LoadReply.Descriptor(name: name, version: version, metadata: metadata)
    }

    static func registered(_ descriptor: LoadReply.Descriptor = descriptor(), displayName: String = "Ether", refused: [String] = []) -> LoadReply {
        .registered(descriptor, LoadReply.Registrations(fetchers: [.init(symbol: "ETH", displayName: displayName, rank: 128)], duplicates: [], refused: refused))
    }

    static func metadata(description: String? = nil, author: String? = nil, license: String? = nil, homepage: String? = nil, apiBaseURL: String? = nil) -> PluginMetadata {
        PluginMetadata(abiVersion: 1, descriptorSize: 80, description: description, author: author, license: license, homepage: homepage, apiBaseURL: apiBaseURL)
    }

    /// Each text: where it is, its field, its cap, and a report carrying it.
    static let reportTexts: [(place: String, field: PluginOutputRules.Field, limit: Int, report: ReportWith)] = [
        ("the plugin's name", .name, 64, { registered(descriptor(name: $0)) }),
        ("the plugin's version", .version, 32, { registered(descriptor(version: $0)) }),
        ("its description", .description, 512, { registered(descriptor(metadata: metadata(description: $0))) }),
        ("its author", .author, 128, { registered(descriptor(metadata: metadata(author: $0))) }),
        ("its licence", .license, 128, { registered(descriptor(metadata: metadata(license: $0))) }),
        ("its homepage", .homepage, 128, { registered(descriptor(metadata: metadata(homepage: $0))) }),
        ("its API base URL", .apiBaseURL, 512, { registered(descriptor(metadata: metadata(apiBaseURL: $0))) }),
        ("a fetcher's display name", .displayName, 64, { registered(displayName: $0) }),
        ("a refused registration's reason", .error, 512, { registered(refused: ["fine", $0]) }),
        ("a failed registration's last error", .error, 512, { .registrationFailed(descriptor(), status: 1, lastError: $0) }),
        ("the name of a failed registration's plugin", .name, 64, { .registrationFailed(descriptor(name: $0), status: 1, lastError: nil) }),
        ("a refused file's reason", .error, 512, { .refused(.notALibrary(reason: $0)) }),
        ("a refused descriptor's rule", .error, 512, { .refused(.invalidDescriptor(PluginOutputRules.Violation(field: .name, rule: $0))) }),
    ]

    /// `bytes` bytes of text: two-byte characters, then an ASCII byte if
    /// `bytes` is odd; a name, whose rule is ASCII, gets ASCII only.
    static func text(bytes: Int, for field: PluginOutputRules.Field) -> String {
        field == .name ? String(repeating: "n", count: bytes) : String(repeating: "é", count: bytes / 2) + (bytes % 2 == 1 ? "a" : "")
    }

    @Test("Every text of a worker's load report is taken at its cap, as sent", arguments: reportTexts.indices)
    func reportTextAtItsCap(index: Int) throws {
        let text = Self.text(bytes: Self.reportTexts[index].limit, for: Self.reportTexts[index].field)
        let report = Self.reportTexts[index].report(text)
        #expect(try report.checked(for: "/x") == report, "\(Self.reportTexts[index].place)")
    }

    @Test("Every text of a worker's load report one byte past its cap is refused, naming its field and cap", arguments: reportTexts.indices)
    func reportTextOnePastItsCap(index: Int) {
        let (place, field, limit, report) = Self.reportTexts[index]
        guard field != .name else {
            // A name has a rule of its own, which holds the length too (issue 34).
            let violation = #expect(throws: PluginOutputRules.Violation.self, "\(place)") { try report(Self.text(bytes: limit + 1, for: field)).checked(for: "/x") }
            #expect(violation?.field == .name)
            #expect(violation?.rule.hasSuffix("is not 1 to 64 ASCII letters, digits, '.', '_' or '-'") == true, "\(String(describing: violation))")
            return
        }
        #expect(throws: PluginOutputRules.Violation(field: field, rule: "is longer than \(limit) bytes"), "\(place)") {
            try report(Self.text(bytes: limit + 1, for: field)).checked(for: "/x")
        }
    }

    @Test("A fetch's error message is taken at its cap and refused one byte past it", arguments: [512, 513])
    func answerErrorAtItsCap(bytes: Int) {
        let message = Self.text(bytes: bytes, for: .error)
        let result = PluginOutputRules.quote(PluginOutputRules.Answer(error: message), for: Self.request)
        if bytes <= 512 {
            #expect(result.failure == FetchError(symbol: "ETH", .pluginFailed(plugin: "TestPlugin", message: message)))
        } else {
            #expect(result.failure == FetchError(symbol: "ETH", .invalidAnswer(plugin: "TestPlugin", violation: .init(field: .error, rule: "is longer than 512 bytes"))))
        }
    }

    @Test("The rule of an answer a worker reports as unreadable is repeated whole up to 256 bytes, and cut past it, however long the frame", arguments: [256, 257, 1 << 20])
    func unreadableRuleIsCut(bytes: Int) {
        let rule = String(repeating: "r", count: bytes)
        let result = PluginOutputRules.quote(FetchCallOutcome.unreadable(.init(field: .amount, rule: rule)), for: Self.request)
        let shown = bytes <= 256 ? rule : String(repeating: "r", count: 256) + "… (cut; \(bytes) bytes in all)"
        #expect(result.failure == FetchError(symbol: "ETH", .invalidAnswer(plugin: "TestPlugin", violation: .init(field: .amount, rule: shown))))
    }
}
