import PluginHost

/// Left-aligned columns separated by two spaces, with a header row.
///
/// Every cell is shown through ``TerminalText``, since most of them are what
/// a plugin said.
struct TextTable {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    var rendered: String {
        let all = ([header] + rows).map { $0.map(TerminalText.escaped) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
            }
            .joined(separator: "  ")
        }
        .joined(separator: "\n") + "\n"
    }
}
