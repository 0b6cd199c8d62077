/// Text that may come from anywhere (a plugin's name or file name, a
/// registration's) made safe for a terminal and for line-oriented output.
///
/// A newline in a name forges a line, a carriage return overwrites one, an
/// escape sequence clears the screen or retitles the window, a
/// bidirectional override shows `exe.gpj` for `jpg.exe`, and a zero-width
/// or tag character makes two names that look alike differ. Such characters
/// are shown, not obeyed: `\n`, `\r`, `\t`, and `\u{1B}` for the rest.
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

    /// Whether a terminal could obey `scalar`, or it hides, reorders or
    /// breaks text invisibly: C0 controls and DEL, C1 controls
    /// (U+0080–U+009F, which some terminals obey as escapes), the Unicode
    /// line and paragraph separators (U+2028, U+2029), every format
    /// character (general category Cf: the zero-width space, joiners and
    /// word joiner, the bidirectional marks, embeddings, overrides and
    /// isolates, U+061C, U+FEFF, U+180E, the invisible operators and the
    /// tags), the unassigned tag code points (U+E0000–U+E007F), and the
    /// Hangul fillers, letters that show as nothing (U+115F, U+1160, U+3164,
    /// U+FFA0). A name of such characters looks like another name, or like
    /// none.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x20...0x7E: false
        case 0x2028...0x2029: true
        case 0xE0000...0xE007F: true
        case 0x115F, 0x1160, 0x3164, 0xFFA0: true
        default: scalar.properties.generalCategory == .format
        }
    }
}
