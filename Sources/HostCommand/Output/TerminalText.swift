import Patchbay

/// Text from plugins made safe for a terminal and for line-oriented output.
///
/// A plugin's name, version, display name, error or log line, or a plugin
/// file's name, may hold a newline that forges a table row or a `host:
/// error:` line, a carriage return that overwrites one, an escape sequence
/// that clears the screen or retitles the window, or a bidirectional
/// override that reverses what follows. Such characters are shown, not
/// obeyed: `\n`, `\r`, `\t`, and `\u{1B}` for the rest. JSON output needs
/// none of this, because its encoder escapes them exactly.
///
/// The rule is ``VisibleText``'s, which `graph`'s DOT and Mermaid output
/// follow too: one list of what is escaped.
enum TerminalText {
    /// `text` with every control character, and every character that
    /// reorders or breaks lines invisibly, replaced by a visible escape.
    /// - Complexity: O(n), and no copy when nothing needs escaping.
    static func escaped(_ text: String) -> String {
        VisibleText.escaped(text)
    }
}
