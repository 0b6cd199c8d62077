import Foundation
import PluginBoundary
@testable import PluginHost
import Testing
import WorkerProtocol

/// Hostile plugins, each attacking the host or the other plugins through the
/// ABI, run through the `host` executable in both modes: the attack fails in
/// the way the containment rules promise.
@Suite("Hostile plugins, end to end", .timeLimit(.minutes(10)))
struct ContainmentEndToEndTests {
    /// In a sandboxed worker, as a user runs an unvouched plugin, and in-process.
    static let modes = CommandRunner.fixturePlacements

    /// A plugin that writes `frame` (hex) to its worker's pipe to the host
    /// while it registers: compiled in, since a worker sees none of the
    /// test's environment.
    static func frameForger(writing frame: String) -> FixturePlugins.Fixture {
        hostile("zz-frame-forger.so", "-DHOSTILE_FORGE_FRAME", #"-DHOSTILE_NAME="FrameForger""#, #"-DHOSTILE_SYMBOL="FRAME""#, "-DHOSTILE_FRAME_HEX=\"\(frame)\"")
    }

    static func hostile(_ fileName: String, _ defines: String...) -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(fileName: fileName, source: "Tests/Fixtures/CPlugins/hostile_plugin.c", defines: ["-pthread"] + defines)
    }

    static let forger = hostile("token-forger.so", "-DHOSTILE_FORGE_TOKENS", #"-DHOSTILE_NAME="TokenForger""#, #"-DHOSTILE_SYMBOL="FORGE""#)
    static let tokenShower = hostile("token-shower.so", "-DHOSTILE_SHOW_TOKENS", #"-DHOSTILE_NAME="TokenShower""#)
    static let blockerA = hostile("blocker-a.so", "-DHOSTILE_BLOCK_FETCH", #"-DHOSTILE_NAME="BlockerA""#, #"-DHOSTILE_SYMBOL="BLOCKA""#)
    static let blockerB = hostile("blocker-b.so", "-DHOSTILE_BLOCK_FETCH", #"-DHOSTILE_NAME="BlockerB""#, #"-DHOSTILE_SYMBOL="BLOCKB""#)
    static let escapes = hostile(
        // Its name follows the name rule, which refuses a hostile name outright (TerminalOutputEndToEndTests).
        "escapes.so", #"-DHOSTILE_NAME="EvilPlugin""#, #"-DHOSTILE_VERSION="1.0\r\nhost: error: forged""#,
        #"-DHOSTILE_SYMBOL="ESC""#, #"-DHOSTILE_DISPLAY="Esc\x1b]0;pwned\x07Name""#, #"-DHOSTILE_LOG="line\nhost: error: forged log""#)
    static let escapingError = hostile(
        "escaping-error.so", #"-DHOSTILE_NAME="ErrorEscaper""#, #"-DHOSTILE_SYMBOL="ESCERR""#,
        #"-DHOSTILE_ERROR="bad\r\nhost: error: ETH: forged\x1b[31m""#)
    static let amounts = [("AMTA", "abc"), ("AMTB", "1e5"), ("AMTC", "NaN")].map { symbol, amount in
        hostile("amount-\(symbol).so", "-DHOSTILE_NAME=\"AmountPlugin\(symbol)\"", "-DHOSTILE_SYMBOL=\"\(symbol)\"", "-DHOSTILE_AMOUNT=\"\(amount)\"")
    }
    static let lateRegistrar = hostile("late-registrar.so", "-DHOSTILE_LATE_REGISTER", #"-DHOSTILE_NAME="LateRegistrar""#, #"-DHOSTILE_SYMBOL="LATEREG""#)
    static let badSymbol = hostile("bad-symbol.so", #"-DHOSTILE_NAME="BadSymbol""#, #"-DHOSTILE_SYMBOL="eth""#)

    /// Rows of a `fetch` table, split into cells.
    static func cells(_ table: String) -> [[String]] {
        table.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
    }

    static func body(_ base: String, _ amount: String) -> String {
        #"{"data":{"base":"\#(base)","currency":"USD","amount":"\#(amount)"}}"#
    }

    @Test("A plugin answering with completion contexts it was never given cannot replace ETH's or BTC's price", arguments: modes)
    func forgedTokensAreIgnored(flags: [String]) async throws {
        // ETH and BTC stay pending for a second while the forger tries small
        // integers and its own token's neighbours, which is what sequential
        // tokens would have handed out to them.
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-USD/spot": .respondWhenConcurrent(count: 99, limit: .seconds(1), status: 200, body: Self.body("ETH", "3000.5")),
            "/v2/prices/BTC-USD/spot": .respondWhenConcurrent(count: 99, limit: .seconds(1), status: 200, body: Self.body("BTC", "60000.25")),
        ])
        defer { Task { await server.stop() } }
        let directory = try await FixturePlugins.directory(containing: [Self.forger], bundled: ["Ethereum", "Bitcoin"])

        let output = try await CommandRunner.host(
            ["fetch", "ETH", "BTC", "FORGE", "--plugins-dir", directory.path, "--api-base-url", server.baseURL] + flags)

        #expect(output.status == 0)
        #expect(Self.cells(output.unlabelled.stdout) == [
            ["ETH", "USD", "3000.5", "EthereumPlugin"], ["BTC", "USD", "60000.25", "BitcoinPlugin"], ["FORGE", "USD", "1.00", "TokenForger"],
        ])
        let source = flags.isEmpty ? "[TokenForger] " : ""
        #expect(output.unlabelled.stderrLines == [
            "host: \(source)warning: ignored a fetch callback whose completion context the host never issued: a plugin forged or corrupted it; later ones are logged with -v"
        ])
    }

    @Test("The completion context a plugin is given is a fresh 64-bit random token, in every mode", arguments: [["--no-isolate"], ["--isolate"]])
    func pluginsSeeWideTokens(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tokenShower])
        let symbols = (1...8).map { "TOK\($0)" }
        let output = try await CommandRunner.host(
            ["fetch"] + symbols + ["--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)

        #expect(output.status == 0, "\(output.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: String]] ?? []
        let tokens = rows.compactMap { $0["amount"].flatMap { UInt64($0) } }
        #expect(rows.map { $0["symbol"] } == symbols)
        #expect(tokens.count == 8 && Set(tokens).count == 8, "\(output.stdout)")
        // Eight random 64-bit tokens all below 2^56 (a 32- or 48-bit token,
        // a counter, a pointer) has probability 2^-64.
        #expect(tokens.contains { $0 >= 1 << 56 }, "every token is narrow: \(tokens)")
    }

    @Test("Two plugins that block their fetch thread for 10 minutes time out at --timeout 2, and the run ends in about 2 s", arguments: modes)
    func blockingFetchesTimeOut(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.blockerA, Self.blockerB])
        let output = try await CommandRunner.host(
            ["fetch", "BLOCKA", "BLOCKB", "--timeout", "2", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)

        let elapsed = output.elapsed
        #expect(output.status == 1)
        #expect(output.stdout == "")
        #expect(output.unlabelled.stderrLines == [
            "host: error: BLOCKA: BlockerA never answered within 2 s, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow",
            "host: error: BLOCKB: BlockerB never answered within 2 s, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow",
        ])
        // Timing assumption: 2 s plus start-up idle; the bound is 60 times
        // that, and the plugins block for 10 minutes, so a run that waited for them cannot pass.
        #expect(elapsed < .seconds(120), "took \(elapsed)")
    }

    @Test("Escape sequences and newlines in every plugin string are shown escaped in tables, logs and graphs, and exact in JSON", arguments: modes)
    func escapeSequencesAreNeutralised(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.escapes, Self.escapingError])
        func host(_ arguments: [String]) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments + ["--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)
        }
        let name = "EvilPlugin"
        // Nobody vouched for it: it is shown with its file.
        let label = "EvilPlugin (unvouched, \(directory.path)/escapes.so)"
        let version = #"1.0\r\nhost: error: forged"#

        let fetchers = try await host(["list-fetchers"])
        let plugins = try await host(["list-plugins"])
        // -v: the plugin's own log lines show only then.
        let fetched = try await host(["fetch", "ESC", "ESCERR", "-v"])
        let dot = try await host(["graph", "--format", "dot"])
        let mermaid = try await host(["graph", "--format", "mermaid"])
        let json = try await host(["list-plugins", "--format", "json"])

        for output in [fetchers, plugins, fetched, dot, mermaid] {
            let text = output.stdout + output.stderr
            #expect(!text.contains("\u{1B}") && !text.contains("\r") && !text.contains("\u{07}"), "raw control characters in: \(text.debugDescription)")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("host: error: forged") || $0.hasPrefix("host: error: ETH") })
        }
        #expect(fetchers.stdout.contains(#"ESC     Esc\u{1B}]0;pwned\u{7}Name  \#(label)"#), "\(fetchers.stdout)")
        #expect(plugins.stdout.replacing(#/ {2,}/#, with: "|").contains("\(name)|\(version)|loaded"), "\(plugins.stdout)")
        #expect(fetched.stdout.contains("ESC     USD       1.00    \(label)"), "\(fetched.stdout)")
        #expect(fetched.stderrLines.contains(#"host: error: ESCERR: bad\r\nhost: error: ETH: forged\u{1B}[31m"#))
        // Its log lines are held until its report is checked, then named as every output names it, in both modes.
        #expect(fetched.stderrLines.contains(#"host: [\#(label)] warning: line\nhost: error: forged log"#), "\(fetched.stderr)")
        #expect(dot.stdout.contains(label), "\(dot.stdout)")
        #expect(mermaid.stdout.contains(label), "\(mermaid.stdout)")

        let rows = try HostFixtures.pluginRows(json.stdout)
        #expect(rows["escapes.so"]?["name"] as? String == "EvilPlugin")
        #expect(rows["escapes.so"]?["version"] as? String == "1.0\r\nhost: error: forged")
    }

    /// A descriptor name, version and display name at their caps, and one byte over.
    static let atCaps = hostile(
        "at-caps.so", "-DHOSTILE_NAME=\"\(String(repeating: "N", count: 64))\"", "-DHOSTILE_VERSION=\"\(String(repeating: "1", count: 32))\"",
        "-DHOSTILE_DISPLAY=\"\(String(repeating: "D", count: 64))\"", #"-DHOSTILE_SYMBOL="ATCAP""#)
    static let overCaps = [
        hostile("long-name.so", "-DHOSTILE_NAME=\"\(String(repeating: "N", count: 65))\"", #"-DHOSTILE_SYMBOL="LNAME""#),
        hostile("long-version.so", "-DHOSTILE_VERSION=\"\(String(repeating: "1", count: 33))\"", #"-DHOSTILE_NAME="LongVersion""#, #"-DHOSTILE_SYMBOL="LVER""#),
        hostile("long-display.so", "-DHOSTILE_DISPLAY=\"\(String(repeating: "D", count: 65))\"", #"-DHOSTILE_NAME="LongDisplay""#, #"-DHOSTILE_SYMBOL="LDISP""#),
    ]

    @Test("A name, version or display name one byte over its cap is refused, naming the cap; at the cap it loads", arguments: [["--no-isolate"], ["--isolate"]])
    func textOverItsCapIsRefused(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.atCaps] + Self.overCaps)
        let output = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path] + flags)

        #expect(output.status == 0)
        let path = directory.path
        // Nobody vouched for it: it is shown with its file.
        #expect(output.stdout.split(separator: "\n").map { $0.replacing(#/ {2,}/#, with: "|") } == [
            "SYMBOL|NAME|PLUGIN|RANK|DEFAULT",
            "ATCAP|\(String(repeating: "D", count: 64))|\(String(repeating: "N", count: 64)) (unvouched, \(path)/at-caps.so)|128|yes",
        ], "\(output.stdout)")
        for line in [
            "host: warning: skipping \(path)/long-name.so: refused: the descriptor's name is longer than 64 bytes; fix the plugin's pb_plugin_descriptor",
            "host: warning: skipping \(path)/long-version.so: refused: the descriptor's version is longer than 32 bytes; fix the plugin's pb_plugin_descriptor",
            "host: warning: skipping \(path)/long-display.so: the host refused every fetcher it registered: its display name is longer than 64 bytes; fix the pb_fetcher it passes to register_fetcher",
        ] {
            #expect(output.stderrLines.contains(line), "\(output.stderr)")
        }
    }

    @Test("Amounts that are not plain decimals become that symbol's error, naming the plugin", arguments: modes)
    func nonDecimalAmountsAreRefused(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: Self.amounts)

        let output = try await CommandRunner.host(
            ["fetch", "AMTA", "AMTB", "AMTC", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)

        #expect(output.status == 1)
        #expect(output.stdout == "")
        let rule = "is not a plain decimal such as 1234.56 with at most 40 digits"
        #expect(output.unlabelled.stderrLines == [
            #"host: error: AMTA: AmountPluginAMTA gave an answer the host refused: its amount "abc" \#(rule)"#,
            #"host: error: AMTB: AmountPluginAMTB gave an answer the host refused: its amount "1e5" \#(rule)"#,
            #"host: error: AMTC: AmountPluginAMTC gave an answer the host refused: its amount "NaN" \#(rule)"#,
        ])
    }

    @Test("A registration after register_plugin returned is refused with a warning naming the plugin", arguments: modes)
    func lateRegistrationIsReported(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.lateRegistrar])
        let plugin = directory.appending(path: "late-registrar.so").path

        let output = try await CommandRunner.host(
            ["fetch", "LATEREG", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)

        #expect(output.status == 0)
        #expect(Self.cells(output.unlabelled.stdout) == [["LATEREG", "USD", "1.00", "LateRegistrar"]])
        let source = flags.isEmpty ? "[LateRegistrar (unvouched, \(plugin))] " : ""
        #expect(output.stderrLines == [
            "host: \(source)warning: \(plugin): LateRegistrar called register_fetcher for LATE after register_plugin had returned; refused with PB_ERR_TOO_LATE: register every fetcher inside register_plugin"
        ])
    }

    @Test("A plugin whose every registration was refused is told why", arguments: modes + [["--no-cache"], ["--no-isolate", "--no-cache"]])
    func refusedRegistrationsAreExplained(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.badSymbol])
        let plugin = directory.appending(path: "bad-symbol.so").path
        let reason = #"its symbol "eth" is not 1 to 16 upper-case letters or digits"#

        let output = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path] + flags)

        // With the cache, the registration is refused while the file is scanned, in a worker, whatever the
        // placement: a scan is quiet, and the skipping line gives the reason. Without it, the unvouched
        // plugin is loaded in a worker, which warns under the plugin's label, unless --no-isolate loads it
        // in-process, where the host refuses it itself.
        let skipping =
            "host: warning: skipping \(plugin): the host refused every fetcher it registered: \(reason); fix the pb_fetcher it passes to register_fetcher"
        let warning = "warning: \(plugin): BadSymbol called register_fetcher with a fetcher the host refused: \(reason)"
        switch flags {
        case ["--no-cache"]: #expect(output.stderrLines == ["host: [BadSymbol (unvouched, \(plugin))] \(warning)", skipping])
        case ["--no-isolate", "--no-cache"]: #expect(output.stderrLines == ["host: \(warning)", skipping])
        default: #expect(output.stderrLines == [skipping])
        }
        let rows = try HostFixtures.pluginRows(output.stdout)
        #expect(rows["bad-symbol.so"]?["status"] as? String == "failed")
    }

    @Test("A worker whose plugin writes its own load report is refused; ETH stays with the Ethereum plugin, listed once")
    func forgedWorkerFrameIsRefused() async throws {
        let forged = WorkerToHost.loaded(.registered(
            LoadReply.Descriptor(name: "FrameForger", version: "1.0.0", metadata: PluginMetadata(abiVersion: 1, descriptorSize: 80, description: nil, author: nil, license: nil, homepage: nil)),
            LoadReply.Registrations(
                fetchers: [.init(symbol: "ETH", displayName: "Ethereum", rank: 256), .init(symbol: "E\u{1B}[31mVIL", displayName: "Evil", rank: 256)],
                duplicates: [], refused: [])
        ))
        // Compiled in, since the worker sees none of the test's environment.
        let frame = try Frame.encode(forged).map { String(format: "%02x", $0) }.joined()
        let directory = try await FixturePlugins.directory(containing: [Self.frameForger(writing: frame)], bundled: ["Ethereum"])
        let forger = directory.appending(path: "zz-frame-forger.so").path

        let output = try await CommandRunner.host(["list-fetchers", "--isolate", "--plugins-dir", directory.path])

        #expect(output.status == 0)
        #expect(output.unlabelled.stdout.replacing(#/ +/#, with: " ") == "SYMBOL NAME PLUGIN RANK DEFAULT\nETH Ethereum EthereumPlugin 128 (declared 256, capped: nobody vouched for it) yes\n")
        #expect(output.stderrLines == [
            // A worker reports every symbol and the host orders ETH's sources; the symbol rule refuses the report.
            #"host: warning: skipping \#(forger): the plugin's isolated worker broke the frame protocol while loading (its load report was refused: its symbol "E\u{1B}[31mVIL" is not 1 to 16 upper-case letters or digits); remove it from the plugins directory or ask its author for a fix"#
        ])
    }

    @Test("A worker's plugin that claims another's symbol at the highest rank is only a later source: nobody vouched for it, so it is believed up to secondary")
    func forgedRankIsCapped() async throws {
        let forged = WorkerToHost.loaded(.registered(
            LoadReply.Descriptor(name: "FrameForger", version: "1.0.0", metadata: PluginMetadata(abiVersion: 1, descriptorSize: 80, description: nil, author: nil, license: nil, homepage: nil)),
            LoadReply.Registrations(fetchers: [.init(symbol: "ETH", displayName: "Ethereum", rank: .max)], duplicates: [], refused: [])
        ))
        let frame = try Frame.encode(forged).map { String(format: "%02x", $0) }.joined()
        let dataHome = try TemporaryDirectory.make()
        let userPlugins = dataHome.appending(path: "patchbay/plugins")
        try FileManager.default.createDirectory(at: userPlugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: await FixturePlugins.library(Self.frameForger(writing: frame)), to: userPlugins.appending(path: "zz-frame-forger.so"))

        // The bundled plugins beside host, vouched for by the build; the forger in the user's directory, after them.
        let output = try await CommandRunner.host(
            ["list-fetchers", "--isolate"], environment: ["XDG_DATA_HOME": dataHome.path])

        #expect(output.status == 0)
        // The forger, which nobody vouched for, is shown with its file; the columns here, whatever their widths.
        #expect(output.unlabelled.stdout.replacing(#/ +/#, with: " ") == """
            SYMBOL NAME PLUGIN RANK DEFAULT
            BTC Bitcoin BitcoinPlugin 256 yes
            BTC Bitcoin BitstampPlugin 128 -
            ETH Ethereum EthereumPlugin 256 yes
            ETH Ethereum BitstampPlugin 128 -
            ETH Ethereum FrameForger 128 (declared 4294967295, capped: nobody vouched for it) -

            """)
        #expect(output.stderrLines.isEmpty)
    }
}
