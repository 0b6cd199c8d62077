/// Text that may come from anywhere (a plugin's name or file name, a
/// registration's) made safe for a terminal and for line-oriented output.
///
/// A newline in a name forges a line, a carriage return overwrites one, an
/// escape sequence clears the screen or retitles the window, and a
/// bidirectional override shows `exe.gpj` for `jpg.exe`. Such characters are
/// shown, not obeyed: `\n`, `\r`, `\t`, and `\u{1B}` for the rest.
///
/// This is the one rule: the dependency graph's DOT and Mermaid output and
/// every line `host` prints (its `TerminalText`) ask it.
package enum VisibleText {
    /// `text` with every character ``needsEscape(_:)`` names replaced by a
    /// visible escape.
    /// - Complexity: O(n), and no copy when nothing needs escaping.
    package static func escaped(_ text: String) -> String {
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

    /// Whether a terminal could obey `scalar`, or it reorders or breaks lines
    /// invisibly: C0 controls and DEL, C1 controls (U+0080–U+009F, which some
    /// terminals obey as escapes), the bidirectional marks, embeddings,
    /// overrides and isolates (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)
    /// and the Unicode line and paragraph separators (U+2028, U+2029).
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
