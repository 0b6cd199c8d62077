@testable import HostCommand
import Testing

/// Columns by display width: what a terminal shows, not what Swift counts.
@Suite("Display width")
struct DisplayWidthTests {
    @Test("Text takes the columns a terminal gives it", arguments: [
        ("abc", 3),
        ("", 0),
        ("以太坊", 6),
        ("ビットコイン", 12),
        ("ＡＢ", 4),
        ("ｱｲ", 2),
        ("한국", 4),
        ("\u{1100}\u{1161}\u{11A8}", 2),
        ("Cafe\u{301}", 4),
        ("e\u{301}\u{302}\u{303}", 1),
        ("\u{301}", 0),
        ("\u{20DD}", 0),
        ("😀", 2),
        ("🐶 Doge", 7),
        ("☺", 1),
        ("☺\u{FE0F}", 2),
        ("🇯🇵", 2),
        ("𠀀", 2),
        ("Ξ", 1),
    ])
    func width(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("Every wide range is read as two columns at both ends, and its neighbours as they are")
    func wideRangesAreSorted() {
        for (index, range) in DisplayWidth.wideRanges.enumerated() {
            #expect(DisplayWidth.isWide(range.lowerBound) && DisplayWidth.isWide(range.upperBound), "\(range)")
            if index > 0 { #expect(DisplayWidth.wideRanges[index - 1].upperBound + 1 < range.lowerBound, "unsorted or unmerged at \(range)") }
        }
        #expect(!DisplayWidth.isWide(0x10FF) && !DisplayWidth.isWide(0x1160) && !DisplayWidth.isWide(0xFF61))
    }

    @Test("A table pads wide, combining and emoji cells by the columns they take, so the next column lines up")
    func tableLinesUp() {
        var table = TextTable("SYMBOL", "NAME", "PLUGIN")
        table.rows = [
            ["ETH", "以太坊", "EthereumPlugin"],
            ["BTC", "Bitcoin", "BitcoinPlugin"],
            ["CAFE", "Cafe\u{301}", "CafePlugin"],
            ["DOGE", "🐶 Doge", "狗Plugin"],
            ["WIDE", "以太坊以太坊", "-"],
        ]
        let lines = table.rendered.split(separator: "\n").map(String.init)
        // NAME is 12 columns wide, for a name of 6 Characters.
        #expect(lines == [
            "SYMBOL  NAME          PLUGIN",
            "ETH     以太坊        EthereumPlugin",
            "BTC     Bitcoin       BitcoinPlugin",
            "CAFE    Cafe\u{301}          CafePlugin",
            "DOGE    🐶 Doge       狗Plugin",
            "WIDE    以太坊以太坊  -",
        ])
    }

    @Test("A wide name is cut by columns, so the progress line stays one line")
    func truncatedByColumns() {
        #expect(DisplayWidth.truncated("以太坊以太坊", to: 7) == "以太坊…")
        #expect(DisplayWidth.truncated("abcdef", to: 4) == "abc…")
        #expect(DisplayWidth.truncated("abc", to: 3) == "abc")
    }
}
