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
}
