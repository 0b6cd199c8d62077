/// How many terminal columns text takes, as `wcwidth(3)` counts them: the
/// columns a table pads by, so that names in Chinese, Japanese or Korean,
/// emoji and names with combining marks line up with the rest.
///
/// A `Character` count is wrong both ways: `名` is one Character and two
/// columns, and `e` with a combining acute is one Character and one column,
/// as is a Hangul syllable spelled in conjoining jamo (three scalars).
///
/// - East Asian Wide and Fullwidth characters, and emoji shown as emoji
///   (their default presentation, or text presentation turned to emoji by
///   U+FE0F), take two columns; so does a flag (two regional indicators).
/// - Combining marks (general categories Mn and Me), format characters
///   (Cf) and the conjoining Hangul vowels and final consonants take none.
/// - Everything else takes one.
///
/// Text reaches it escaped (``TerminalText``), so no control character is
/// ever measured.
enum DisplayWidth {
    /// The columns `text` takes: the sum of its Characters'.
    /// - Complexity: O(n) in the scalars of `text`.
    static func of(_ text: String) -> Int {
        // Printable ASCII: one column each, without a Character walk.
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one Character takes: its widest scalar's (a base and its
    /// marks show in the base's cell), or two when it is an emoji
    /// presentation sequence or a flag.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count > 1, scalars.contains("\u{FE0F}"), scalars.first?.properties.isEmoji == true { return 2 }
        return scalars.reduce(0) { max($0, of($1)) }
    }

    /// The columns one scalar takes on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if isWide(value) { return 2 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        // Emoji shown as emoji, newer ones than the table and the regional indicators a flag pairs, are wide.
        if properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Whether `value` is East Asian Wide or Fullwidth (``wideRanges``).
    /// - Complexity: O(log n) in the ranges.
    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// `text` padded with spaces to `columns` columns (never cut).
    static func padded(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - of(text)))
    }

    /// `text` cut to at most `columns` columns, ending in "…" when cut.
    static func truncated(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            guard used + width <= columns - 1 else { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }
}
