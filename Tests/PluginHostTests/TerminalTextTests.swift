@testable import HostCommand
import Testing

/// Plugin text on its way to a terminal.
@Suite("Terminal escaping")
struct TerminalTextTests {
    @Test("Control, bidirectional, separator and invisible characters are shown, not obeyed", arguments: [
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
    /// any range lets a test fail: C0 and DEL, C1, the line and paragraph
    /// separators, the format characters (zero-width space and joiners, the
    /// bidirectional marks, embeddings, overrides and isolates, the Arabic
    /// letter mark, the byte order mark, the Mongolian vowel separator, the
    /// word joiner and invisible operators, the soft hyphen and the other Cf),
    /// every tag code point, and the Hangul fillers.
    static let escapedRanges: [ClosedRange<UInt32>] = [
        0x00...0x1F, 0x7F...0x7F, 0x80...0x9F, 0x2028...0x2029,
        0x061C...0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F,
        0xFEFF...0xFEFF, 0x180E...0x180E, 0x00AD...0x00AD, 0x0600...0x0605, 0xFFF9...0xFFFB, 0x1D173...0x1D17A,
        0xE0000...0xE007F, 0x115F...0x1160, 0x3164...0x3164, 0xFFA0...0xFFA0,
    ]
    static let escapedScalars: [UInt32] = escapedRanges.flatMap { Array($0) }

    @Test("Each code point of each escaped class is shown as an escape", arguments: escapedScalars)
    func everyEscapedScalar(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let named: [UInt32: String] = [0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#]
        let shown = named[value] ?? "\\u{\(String(value, radix: 16, uppercase: true))}"
        #expect(TerminalText.escaped("a\(Character(scalar))b") == "a\(shown)b")
    }

    @Test("Their neighbours, and other text, are shown as they are", arguments: [
        0x20, 0x7E, 0xA0, 0xAC, 0xAE, 0x061B, 0x061D, 0x115E, 0x1161, 0x180D, 0x180F, 0x200A, 0x2010, 0x2027, 0x202F,
        0x205F, 0x2065, 0x2070, 0x3163, 0x3165, 0xFE0F, 0xFEFC, 0xFF9F, 0xFFA1, 0xE0100, 0x1F600,
    ] as [UInt32])
    func neighboursAreKept(value: UInt32) throws {
        let text = "a" + String(Character(try #require(Unicode.Scalar(value)))) + "b"
        #expect(TerminalText.escaped(text) == text)
    }

    @Test("A name that only looks like another is shown as different", arguments: [
        ("Ethereum\u{200B}Plugin", #"Ethereum\u{200B}Plugin"#),
        ("\u{FEFF}BitcoinPlugin", #"\u{FEFF}BitcoinPlugin"#),
        ("Bitcoin\u{E0041}\u{E007F}", #"Bitcoin\u{E0041}\u{E007F}"#),
        ("\u{3164}", #"\u{3164}"#),
        ("a\u{061C}\u{2067}b\u{2069}", #"a\u{61C}\u{2067}b\u{2069}"#),
    ])
    func lookalikesDiffer(input: String, shown: String) {
        #expect(TerminalText.escaped(input) == shown)
    }
}
