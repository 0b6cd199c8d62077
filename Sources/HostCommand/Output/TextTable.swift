import PluginHost

/// Left-aligned columns separated by two spaces, with a header row.
///
/// Every cell is shown through ``TerminalText``, since most of them are what
/// a plugin said, and padded by its ``DisplayWidth``, not its Character
/// count, so wide (CJK, emoji) and combining text keeps the columns aligned.
struct TextTable {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    var rendered: String {
        let all = ([header] + rows).map { $0.map(TerminalText.escaped) }
        let widths = header.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : DisplayWidth.padded(row[column], to: widths[column])
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n") + "\n"
    }
}
