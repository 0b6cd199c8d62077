/// Text from plugins made safe for a terminal and for line-oriented output.
///
/// A plugin's name, version, display name, error or log line may hold a
/// newline that forges a table row or a `host: error:` line, a carriage
/// return that overwrites one, or an escape sequence that clears the screen
/// or retitles the window. Such characters are shown, not obeyed: `\n`,
/// `\r`, `\t`, and `\u{1B}` for the rest. JSON output needs none of this,
/// because its encoder escapes them exactly.
enum TerminalText {
    /// `text` with every control character, and every character that
    /// reorders or breaks lines invisibly, replaced by a visible escape.
    ///
    /// Escaped: C0 controls and DEL, C1 controls (U+0080–U+009F, which some
    /// terminals obey as escapes), the bidirectional overrides and isolates
    /// (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the Unicode line
    /// and paragraph separators (U+2028, U+2029).
    /// - Complexity: O(n), and no copy when nothing needs escaping.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
