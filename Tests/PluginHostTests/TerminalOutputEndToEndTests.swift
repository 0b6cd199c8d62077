import Foundation
import Testing

/// Every command that shows a plugin's text or a plugin file's name, run as
/// a user runs it: a name holding one character of each escaped class
/// (C0, DEL, C1, a bidirectional mark, override and isolate, a paragraph
/// separator) and a file name holding an escape sequence and an override
/// reach stdout and stderr shown, never raw.
@Suite("Plugin text and file names reach the terminal escaped, in every command", .timeLimit(.minutes(10)))
struct TerminalOutputEndToEndTests {
    /// ESC, DEL, CSI (C1), LRM, RLO, PARAGRAPH SEPARATOR, LRI and BEL, each
    /// followed by a character that is no hexadecimal digit, so C reads each
    /// escape alone.
    static let hostileName = #"Ev\x1b-\x7f-\xc2\x9b-\xe2\x80\x8e-\xe2\x80\xae-\xe2\x80\xa9-\xe2\x81\xa6-\x07-il"#
    /// How every command shows it.
    static let shownName = #"Ev\u{1B}-\u{7F}-\u{9B}-\u{200E}-\u{202E}-\u{2029}-\u{2066}-\u{7}-il"#
    static let hostileDisplay = #"Di\x1b]0;x\x07-\xe2\x80\xae-sp"#
    static let shownDisplay = #"Di\u{1B}]0;x\u{7}-\u{202E}-sp"#
    /// A file name that clears the screen and reverses what follows.
    static let fileName = "ev\u{1B}[2J\u{202E}os.so"
    static let shownFileName = #"ev\u{1B}[2J\u{202E}os.so"#
    /// A file that is no plugin, under a name as hostile.
    static let junkName = "j\u{1B}[31m\u{202E}unk.so"
    static let shownJunkName = #"j\u{1B}[31m\u{202E}unk.so"#

    /// A plugin whose display name and file name are hostile; its own name
    /// follows the name rule, which a hostile name breaks (``badName``).
    static let escapes = FixturePlugins.Fixture(
        fileName: fileName, source: "Tests/Fixtures/CPlugins/hostile_plugin.c",
        defines: ["-DHOSTILE_NAME=\"EvilPlugin\"", "-DHOSTILE_DISPLAY=\"\(hostileDisplay)\"", #"-DHOSTILE_SYMBOL="ESC""#])
    /// A plugin whose name is hostile: refused, its name shown escaped in the line that says why.
    static let badName = FixturePlugins.Fixture(
        fileName: "libbadname.so", source: "Tests/Fixtures/CPlugins/hostile_plugin.c",
        defines: ["-DHOSTILE_NAME=\"\(hostileName)\"", #"-DHOSTILE_SYMBOL="BAD""#])

    /// Whether a terminal would obey `scalar` rather than show it: the
    /// classes `TerminalText` escapes, but the line breaks output is made of.
    static func isObeyed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The raw characters a terminal would obey in `text`.
    static func obeyed(_ text: String) -> [String] {
        text.unicodeScalars.filter(isObeyed).map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test("list-fetchers, list-plugins, fetch, graph, inspect, trust, untrust and lock-plugins show every hostile character escaped")
    func everyCommandEscapes() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.escapes, Self.badName], extraFiles: [Self.junkName: Data("junk".utf8)])
        let plugin = directory.appending(path: Self.fileName).path
        let junk = directory.appending(path: Self.junkName).path
        let shownPlugin = "\(directory.path)/\(Self.shownFileName)"
        let shownJunk = "\(directory.path)/\(Self.shownJunkName)"
        let environment = ["XDG_CONFIG_HOME": try TemporaryDirectory.make().path, "XDG_CACHE_HOME": try TemporaryDirectory.make().path]
        func host(_ arguments: [String]) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments, environment: environment)
        }
        let plugins = ["--plugins-dir", directory.path]
        let skippingJunk =
            "host: warning: skipping \(shownJunk): not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it"

        let skippingBadName = "host: warning: skipping \(directory.path)/libbadname.so: refused: the descriptor's name \"\(Self.shownName)\" "
            + "is not 1 to 64 ASCII letters, digits, '.', '_' or '-'; fix the plugin's pb_plugin_descriptor"
        // A plugin nobody vouched for is shown with its file, escaped too.
        let label = "EvilPlugin (unvouched, \(shownPlugin))"

        // What each command must show: the output, and lines it must hold.
        var runs: [(String, CommandRunner.Output, [String])] = []
        runs.append(("list-fetchers", try await host(["list-fetchers"] + plugins), ["ESC     \(Self.shownDisplay)  \(label)  128   yes", skippingJunk, skippingBadName]))
        let listed = try await host(["list-plugins"] + plugins)
        runs.append(("list-plugins", listed, [
            "\(shownJunk): not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it",
        ]))
        let cells = listed.stdout.split(separator: "\n").map { $0.replacing(#/ {2,}/#, with: "|") }
        #expect(cells.contains { $0.hasPrefix("EvilPlugin|1.0.0|loaded|isolated|nobody|") }, "\(listed.stdout)")
        runs.append(("fetch", try await host(["fetch", "ESC", "--api-base-url", HostFixtures.coinbase] + plugins), [
            "ESC     USD       1.00    \(label)", skippingJunk, skippingBadName,
        ]))
        // DOT doubles each backslash of the escaped path; Mermaid keeps it.
        runs.append(("graph", try await host(["graph"] + plugins), [
            #"  n1 [label="PluginIdentity(name: \"EvilPlugin (unvouched, "# + directory.path + #"/ev\\u{1B}[2J\\u{202E}os.so)\")\n(singleton)"];"#
        ]))
        runs.append(("graph --format mermaid", try await host(["graph", "--format", "mermaid"] + plugins), [
            #"  n1["PluginIdentity(name: #quot;EvilPlugin (unvouched, "# + directory.path + #"/ev\u{1B}[2J\u{202E}os.so)#quot;)<br/>(singleton)"]"#
        ]))
        runs.append(("inspect", try await host(["inspect", plugin]), [
            "\(shownPlugin): a working plugin", "  name         EvilPlugin", "  ESC     \(Self.shownDisplay)  128",
        ]))
        runs.append(("inspect junk", try await host(["inspect", junk]), [
            "host: error: \(shownJunk) is not a working plugin: not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it"
        ]))
        // A line of the trust store or a lock file cannot hold the name's ESC: trust and lock-plugins refuse it, escaped.
        runs.append(("trust", try await host(["trust", plugin]), [
            "host: error: not trusting \(shownPlugin): its name holds a control character, which a line of the trust store cannot hold; rename the file without it, then trust it"
        ]))
        runs.append(("untrust", try await host(["untrust", plugin]), [
            "host: error: \(shownPlugin) is not in your trust store, so there is nothing to take back; it runs in a sandboxed worker (nobody vouched for it); `host trust --list` shows what is"
        ]))
        let locked = try await host(["lock-plugins"] + plugins)
        runs.append(("lock-plugins", locked, [
            "host: warning: not locking \(shownJunk): not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it",
            "host: warning: not locking \(shownPlugin): its name holds a control character, which a line of the trust store cannot hold; rename the file without it, then lock it",
        ]))
        #expect(!locked.stdout.contains("  \(shownPlugin)\n"), "\(locked.stdout)")

        for (command, output, lines) in runs {
            let text = output.stdout + output.stderr
            #expect(Self.obeyed(text).isEmpty, "\(command) wrote raw \(Self.obeyed(text)): \(text.debugDescription)")
            let shown = Set(text.split(separator: "\n").map(String.init))
            for line in lines {
                #expect(shown.contains(line), "\(command) did not show \(line.debugDescription) in:\n\(text)")
            }
        }
    }
}
