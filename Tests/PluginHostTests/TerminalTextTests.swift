@testable import HostCommand
import Testing

/// Plugin text on its way to a terminal.
@Suite("Terminal escaping")
struct TerminalTextTests {
    @Test("Control, bidirectional and separator characters are shown, not obeyed", arguments: [
        ("plain text", "plain text"),
        ("a\nb", #"a\nb"#),
        ("a\rb\tc", #"a\rb\tc"#),
        ("\u{1B}[2J", #"\u{1B}[2J"#),
        ("bell\u{07}", #"bell\u{7}"#),
        ("del\u{7F}", #"del\u{7F}"#),
        ("c1\u{9B}31m", #"c1\u{9B}31m"#),
        ("rtl\u{202E}gpj.exe", #"rtl\u{202E}gpj.exe"#),
        ("line\u{2028}sep", #"line\u{2028}sep"#),
        ("Ethereum Ξ ünïcode", "Ethereum Ξ ünïcode"),
    ])
    func escaping(input: String, shown: String) {
        #expect(TerminalText.escaped(input) == shown)
    }

    /// Every code point of every escaped class, one by one, so that narrowing
    /// any range lets a test fail: C0 and DEL, C1, the bidirectional marks,
    /// embeddings, overrides and isolates, and the line and paragraph separators.
    static let escapedScalars: [UInt32] =
        Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F) + [0x200E, 0x200F] + Array(0x2028...0x202E) + Array(0x2066...0x2069)

    @Test("Each code point of each escaped class is shown as an escape", arguments: escapedScalars)
    func everyEscapedScalar(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let named: [UInt32: String] = [0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#]
        let shown = named[value] ?? "\\u{\(String(value, radix: 16, uppercase: true))}"
        #expect(TerminalText.escaped("a\(Character(scalar))b") == "a\(shown)b")
    }

    @Test("Their neighbours, and other text, are shown as they are", arguments: [
        0x20, 0x7E, 0xA0, 0x200D, 0x2010, 0x2027, 0x202F, 0x2065, 0x206A, 0x1F600,
    ] as [UInt32])
    func neighboursAreKept(value: UInt32) throws {
        let text = "a" + String(Character(try #require(Unicode.Scalar(value)))) + "b"
        #expect(TerminalText.escaped(text) == text)
    }
}
