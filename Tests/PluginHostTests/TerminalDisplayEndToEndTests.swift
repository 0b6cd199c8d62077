import Foundation
import Testing

/// What a user at a terminal sees, with stdout and stderr on a
/// pseudo-terminal: every invisible, zero-width, bidirectional and tag
/// character and every Hangul filler in a plugin's name, a fetcher's display
/// name and an error line is shown escaped; columns line up by display width
/// for wide and zero-width names; and what a user typed is escaped too.
@Suite("What the terminal shows: invisible characters escaped, columns by display width", .timeLimit(.minutes(10)))
struct TerminalDisplayEndToEndTests {
    /// One character of each class, as C writes it, each followed by "-" so
    /// that no hexadecimal escape runs into the next: the Arabic letter mark,
    /// zero-width space and joiner, right-to-left mark, an embedding, an
    /// invisible operator, an isolate, the byte order mark, a tag, the four
    /// Hangul fillers, the Mongolian vowel separator and the soft hyphen.
    static let classes =
        #"\xd8\x9c-\xe2\x80\x8b-\xe2\x80\x8d-\xe2\x80\x8f-\xe2\x80\xaa-\xe2\x81\xa2-\xe2\x81\xa7-\xef\xbb\xbf-\xf3\xa0\x81\x81-"#
        + #"\xe3\x85\xa4-\xe1\x85\x9f-\xe1\x85\xa0-\xef\xbe\xa0-\xe1\xa0\x8e-\xc2\xad-x"#
    /// How the host shows them.
    static let shownClasses = #"\u{61C}-\u{200B}-\u{200D}-\u{200F}-\u{202A}-\u{2062}-\u{2067}-\u{FEFF}-\u{E0041}-\u{3164}-\u{115F}-\u{1160}-\u{FFA0}-\u{180E}-\u{AD}-x"#
    /// The scalars of those classes, none of which may reach the terminal raw.
    static let hidden: Set<UInt32> = [
        0x061C, 0x200B, 0x200D, 0x200F, 0x202A, 0x2062, 0x2067, 0xFEFF, 0xE0041, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x180E, 0x00AD,
    ]

    /// A plugin's name is ASCII (issue 34), so these classes reach the
    /// terminal in its display name, its error and its file name; a name
    /// holding them is refused, and the refusal shows them escaped.
    static let invisible = FixturePlugins.Fixture(
        fileName: "libInvisible\u{200B}\u{E0041}Plugin.so", source: "Tests/Fixtures/CPlugins/hostile_plugin.c",
        defines: [
            #"-DHOSTILE_NAME="InvisiblePlugin""#, "-DHOSTILE_DISPLAY=\"D\(classes)\"", "-DHOSTILE_ERROR=\"E\(classes)\"", #"-DHOSTILE_SYMBOL="INV""#,
        ])
    static let invisibleName = FixturePlugins.Fixture(
        fileName: "libInvisibleName.so", source: "Tests/Fixtures/CPlugins/hostile_plugin.c",
        defines: ["-DHOSTILE_NAME=\"N\(classes)\"", #"-DHOSTILE_SYMBOL="NAM""#])

    /// The raw scalars of the hidden classes in `text`, as U+XXXX.
    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.filter { hidden.contains($0.value) }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test("list-fetchers, list-plugins, fetch and inspect show each class escaped in a name, a display name, an error line and a file name")
    func everyClassEscaped() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.invisible, Self.invisibleName])
        let plugin = directory.appending(path: Self.invisible.fileName).path
        let shownFile = #"libInvisible\u{200B}\u{E0041}Plugin.so"#
        let name = "InvisiblePlugin"
        let label = "\(name) (unvouched, \(directory.path)/\(shownFile))"
        let refusedName = "refused: the descriptor's name \"N\(Self.shownClasses)\" is not 1 to 64 ASCII letters"
        let display = "D\(Self.shownClasses)"
        let error = "E\(Self.shownClasses)"
        let plugins = ["--plugins-dir", directory.path]

        let runs: [(String, HostOnTerminal.Run, [String])] = [
            ("list-fetchers", try await HostOnTerminal.host(["list-fetchers"] + plugins), ["INV     \(display)  \(label)  128   yes", refusedName]),
            ("list-plugins", try await HostOnTerminal.host(["list-plugins"] + plugins), ["\(name)      1.0.0    loaded  isolated  nobody"]),
            ("fetch", try await HostOnTerminal.host(["fetch", "INV", "--api-base-url", HostFixtures.coinbase] + plugins), [error]),
            ("inspect", try await HostOnTerminal.host(["inspect", plugin]), ["\(directory.path)/\(shownFile): a working plugin", "  name         \(name)", "  INV     \(display)"]),
        ]
        for (command, run, expected) in runs {
            #expect(Self.raw(run.screen).isEmpty, "\(command) showed raw \(Self.raw(run.screen)): \(run.screen.debugDescription)")
            for text in expected {
                #expect(run.screen.contains(text), "\(command) did not show \(text.debugDescription) in:\n\(run.screen)")
            }
        }
        let fetched = runs[2].1
        #expect(fetched.status == 1, "\(fetched.screen)")
        let errorLine = try #require(fetched.screen.split(separator: "\n").first { $0.hasPrefix("host: error: INV: ") })
        #expect(errorLine == "host: error: INV: \(error)", "\(fetched.screen)")
    }

    /// Fetchers whose display names are wide (CJK, an emoji), hold a
    /// combining mark (zero columns), or a zero-width space (shown escaped).
    static let wideRows = [
        ("libCafePlugin.so", "CafePlugin", "CAFE", #"Cafe\xcc\x81"#),
        ("libCJKPlugin.so", "CJKPlugin", "CJK", "以太坊"),
        ("libDogePlugin.so", "DogePlugin", "DOGE", #"\xf0\x9f\x90\xb6 Doge"#),
        ("libZeroWidthPlugin.so", "ZeroWidthPlugin", "ZW", #"Zero\xe2\x80\x8bWidth"#),
    ]
    static let wide: [FixturePlugins.Fixture] = wideRows.map { file, name, symbol, display in
        FixturePlugins.Fixture(
            fileName: file, source: "Tests/Fixtures/CPlugins/hostile_plugin.c",
            defines: ["-DHOSTILE_NAME=\"\(name)\"", "-DHOSTILE_SYMBOL=\"\(symbol)\"", "-DHOSTILE_DISPLAY=\"\(display)\""])
    }

    @Test("list-fetchers lines its columns up by display width for CJK, emoji, combining and zero-width names")
    func columnsAlign() async throws {
        let directory = try await FixturePlugins.directory(containing: Self.wide)

        let run = try await HostOnTerminal.host(["list-fetchers", "--plugins-dir", directory.path])

        #expect(run.status == 0, "\(run.screen)")
        func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
        // NAME is 17 columns ("Zero\u{200B}Width" as shown); PLUGIN is as wide as the longest label, all ASCII.
        let labels = Self.wideRows.map { "\($0.1) (unvouched, \(directory.path)/\($0.0))" }
        let width = labels.map(\.count).max() ?? 0
        func plugin(_ index: Int) -> String { labels[index] + spaces(width - labels[index].count + 2) }
        #expect(run.screen.split(separator: "\n").map(String.init) == [
            "SYMBOL  NAME" + spaces(15) + "PLUGIN" + spaces(width - 6 + 2) + "RANK  DEFAULT",
            "CAFE    Cafe\u{301}" + spaces(15) + plugin(0) + "128   yes",
            "CJK     以太坊" + spaces(13) + plugin(1) + "128   yes",
            "DOGE    🐶 Doge" + spaces(12) + plugin(2) + "128   yes",
            "ZW      Zero\\u{200B}Width  " + plugin(3) + "128   yes",
        ], "\(run.screen)")
    }

    @Test("new-plugin repeats a name the user typed escaped, in one line: ESC and a newline are shown, not obeyed")
    func newPluginEscapesTheName() async throws {
        let run = try await HostOnTerminal.host(["new-plugin", "Doge\u{1B}[2J\nX\u{202E}", "--language", "c"])

        #expect(run.status == 64, "\(run.screen)")
        let lines = run.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == #"host: error: 'Doge\u{1B}[2J\nX\u{202E}' is not a plugin name; use ASCII letters and digits, starting with a letter, e.g. Dogecoin"#, "\(run.screen)")
        #expect(!run.screen.contains("\u{1B}") && !run.screen.contains("\u{202E}"), "\(run.screen.debugDescription)")
    }

    @Test("A usage error repeats what the user typed escaped: argument-parser's lines too")
    func parserErrorEscaped() async throws {
        let run = try await HostOnTerminal.host(["list-fetchers", "--format", "\u{1B}]0;x\u{07}t\u{200B}"])

        #expect(run.status == 64, "\(run.screen)")
        let first = try #require(run.screen.split(separator: "\n").first)
        #expect(first.hasPrefix("host: error: ") && first.contains(#"'\u{1B}]0;x\u{7}t\u{200B}'"#), "\(run.screen)")
        #expect(!run.screen.contains("\u{1B}") && !run.screen.contains("\u{07}") && !run.screen.contains("\u{200B}"), "\(run.screen.debugDescription)")
    }
}
