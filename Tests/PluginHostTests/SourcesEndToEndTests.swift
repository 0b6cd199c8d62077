import Foundation
import Testing

/// Several sources of one symbol, through `host` with its defaults: which
/// is asked first (ranks, `HOST_RANKS`, `--source`), failover within one
/// `--timeout`, hedging, and every source at once with a median and spread.
///
/// The sources are C plugins of one symbol, SRC, that answer without HTTP
/// (`FIXTURE_AMOUNT`, `FIXTURE_FAILS`) or misbehave as a failing source
/// does. None is vouched for, so each runs in a sandboxed worker, as a
/// stranger's plugin does, unless a test vouches for it.
@Suite("Several sources of a symbol, end to end", .timeLimit(.minutes(5)))
struct SourcesEndToEndTests {
    /// A source of SRC named `name`, built with `defines`, in a file named
    /// after both: fixtures are built once per file name, and search order
    /// follows the name first.
    static func source(_ name: String, _ defines: [String]) -> FixturePlugins.Fixture {
        // FNV-1a: stable across runs, unlike `hashValue`.
        let variant = defines.joined(separator: " ").utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return FixturePlugins.Fixture(
            fileName: "lib\(name)-\(String(variant, radix: 16)).so", defines: ["-DFIXTURE_NAME=\"\(name)\"", "-DFIXTURE_SYMBOL=\"SRC\""] + defines)
    }

    static func answering(_ name: String, _ amount: String, _ more: [String] = []) -> FixturePlugins.Fixture {
        source(name, ["-DFIXTURE_AMOUNT=\"\(amount)\""] + more)
    }

    static let beta = answering("BetaPlugin", "2.00")

    /// `host fetch SRC` with the sources in `fixtures`, in a directory of their own.
    ///
    /// `DIR` in `arguments` and in `environment`'s values is that directory,
    /// to name a source by its file (a name selects only vouched plugins).
    /// These tests are about which source answers and why the others failed:
    /// the output they see has each ` (unvouched, PATH)` label taken out, and
    /// the directory shown as `DIR`; `IdentityEndToEndTests` asserts the labels.
    static func fetch(
        _ fixtures: [FixturePlugins.Fixture], _ arguments: [String] = [], environment: [String: String] = [:],
        deadline: Duration = CommandRunner.defaultDeadline
    ) async throws -> CommandRunner.Output {
        let directory = try await FixturePlugins.directory(containing: fixtures)
        let output = try await CommandRunner.host(
            ["fetch", "SRC", "--plugins-dir", directory.path] + arguments.map { $0.replacing("DIR", with: directory.path) },
            environment: environment.mapValues { $0.replacing("DIR", with: directory.path) }, deadline: deadline)
        return unlabelled(output, directory: directory)
    }

    /// `output` with the labels of plugins nobody vouched for taken out, and `directory` shown as `DIR`.
    static func unlabelled(_ output: CommandRunner.Output, directory: URL) -> CommandRunner.Output {
        func clean(_ text: String) -> String {
            text.replacing(#/ \(unvouched, [^)]*\)/#, with: "").replacing(directory.path, with: "DIR")
        }
        var cleaned = CommandRunner.Output(status: output.status, stdout: clean(output.stdout), stderr: clean(output.stderr))
        cleaned.elapsed = output.elapsed
        return cleaned
    }

    /// The JSON rows, without the `path` and `vouchedBy` of each source, which `IdentityEndToEndTests` asserts.
    static func rows(_ json: String) throws -> [[String: Any]] {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "path" && $0.key != "vouchedBy" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return rows.map { strip($0) as? [String: Any] ?? [:] }
    }

    // MARK: Failover

    /// Each way a first source fails, and the line that says so.
    static let failures: [(String, FixturePlugins.Fixture, [String], String)] = [
        ("an error", source("AlphaPlugin", [#"-DFIXTURE_FAILS="the Alpha API is down""#]), [], "the Alpha API is down"),
        ("a refused amount", answering("AlphaPlugin", "1e5"), [],
         #"AlphaPlugin gave an answer the host refused: its amount "1e5" is not a plain decimal such as 1234.56 with at most 40 digits"#),
        ("a crash in its worker", source("AlphaPlugin", ["-DFIXTURE_ABORT_IN_FETCH"]), [],
         "AlphaPlugin crashed with SIGABRT (aborted) while fetching, in its isolated worker; remove it from the plugins directory or ask its author for a fix"),
        // --timeout 8: each of the two sources gets half, and the first never answers.
        ("a timeout", source("AlphaPlugin", ["-DFIXTURE_NEVER_CALLS_BACK"]), ["--timeout", "8"],
         "AlphaPlugin never answered within 4 s, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow"),
    ]

    @Test("When the first source fails, the next answers: exit 0, the answer names it, stderr says why the first failed",
          arguments: failures)
    func failover(_ failure: (String, FixturePlugins.Fixture, [String], String)) async throws {
        let (_, alpha, flags, reason) = failure
        let table = try await Self.fetch([alpha, Self.beta], flags)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nSRC     USD       2.00    BetaPlugin\n")
        #expect(table.stderrLines == ["host: warning: SRC: AlphaPlugin failed: \(reason)"])

        let json = try await Self.fetch([alpha, Self.beta], flags + ["--format", "json"])
        #expect(json.status == 0)
        let row = try #require(try Self.rows(json.stdout).first)
        #expect(row["plugin"] as? String == "BetaPlugin")
        #expect(row["amount"] as? String == "2.00")
        let attempts = try #require(row["attempts"] as? [[String: String]])
        #expect(attempts == [
            ["plugin": "AlphaPlugin", "status": "failed", "error": reason],
            ["plugin": "BetaPlugin", "status": "answered", "amount": "2.00"],
        ])
    }

    @Test("When every source fails, the fetch exits 1 with one line per source, naming each")
    func everySourceFails() async throws {
        let alpha = Self.source("AlphaPlugin", [#"-DFIXTURE_FAILS="the Alpha API is down""#])
        let beta = Self.source("BetaPlugin", [#"-DFIXTURE_FAILS="the Beta API is down""#])
        let output = try await Self.fetch([alpha, beta])
        #expect(output.status == 1)
        #expect(output.stdout == "")
        #expect(output.stderrLines == ["host: error: SRC: AlphaPlugin failed: the Alpha API is down", "host: error: SRC: BetaPlugin failed: the Beta API is down"])

        let json = try await Self.fetch([alpha, beta], ["--format", "json"])
        let row = try #require(try Self.rows(json.stdout).first)
        #expect(row["error"] as? String == "no source answered (AlphaPlugin, BetaPlugin); each one's reason is on its own line")
        #expect((row["attempts"] as? [[String: String]])?.map { $0["status"] } == ["failed", "failed"])
    }

    @Test("A first source that answers is the only one loaded and asked")
    func lazy() async throws {
        let output = try await Self.fetch([Self.answering("AlphaPlugin", "1.00"), Self.beta], ["-v"])
        #expect(output.status == 0)
        #expect(output.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nSRC     USD       1.00    AlphaPlugin\n")
        // -v logs each on-demand load; only the first source's happens.
        let loads = output.stderrLines.filter { $0.contains("on demand in") }
        #expect(loads.count == 1 && loads[0].contains("/libAlphaPlugin-"), "\(output.stderr)")
    }

    // MARK: Ranks

    /// Sources the user vouched for with `host lock-plugins`, which writes their digests in the trust store: their declared ranks are believed.
    static func vouchedFetch(_ fixtures: [FixturePlugins.Fixture], _ arguments: [String] = []) async throws -> CommandRunner.Output {
        let directory = try await FixturePlugins.directory(containing: fixtures)
        let store = ["XDG_CONFIG_HOME": try TemporaryDirectory.make().path]
        let lock = try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path], environment: store)
        #expect(lock.status == 0, "\(lock.stderr)")
        return try await CommandRunner.host(["fetch", "SRC", "--plugins-dir", directory.path] + arguments, environment: store)
    }

    static func answerer(_ output: CommandRunner.Output) -> String? {
        output.stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").last.map(String.init)
    }

    @Test("A declared rank puts a source first, over search order, once someone vouched for it")
    func declaredRank() async throws {
        let alpha = Self.answering("AlphaPlugin", "1.00")
        let primaryBeta = Self.answering("BetaPlugin", "2.00", ["-DFIXTURE_RANK=256"])
        #expect(Self.answerer(try await Self.vouchedFetch([alpha, primaryBeta])) == "BetaPlugin")
        // Nobody vouched: Beta's primary is believed up to secondary, and search order puts Alpha first.
        #expect(Self.answerer(try await Self.fetch([alpha, primaryBeta])) == "AlphaPlugin")
    }

    @Test("A plugin built before ranks gets secondary: the host reads no rank past its struct")
    func oldFetcher() async throws {
        // Alpha's struct ends at `fetch`, with PB_RANK_PRIMARY written after it; a host reading it would ask Alpha first.
        let oldAlpha = Self.answering("AlphaPlugin", "1.00", ["-DFIXTURE_OLD_FETCHER"])
        let beta = Self.answering("BetaPlugin", "2.00", ["-DFIXTURE_RANK=200"])
        let output = try await Self.vouchedFetch([oldAlpha, beta])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Self.answerer(output) == "BetaPlugin")
        let directory = try await FixturePlugins.directory(containing: [oldAlpha])
        let listed = Self.unlabelled(try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path]), directory: directory)
        #expect(listed.stdout.replacing(#/ +/#, with: " ") == "SYMBOL NAME PLUGIN RANK DEFAULT\nSRC Dogecoin (C) AlphaPlugin 128 yes\n")
    }

    @Test("HOST_RANKS overrides any rank, a stranger's included")
    func overriddenRank() async throws {
        let alpha = Self.answering("AlphaPlugin", "1.00")
        let beta = Self.answering("BetaPlugin", "2.00")
        // Nobody vouched for them: a name ranks neither, and a file ranks either, up to secondary.
        #expect(Self.answerer(try await Self.fetch([alpha, beta], environment: ["HOST_RANKS": "BetaPlugin:300"])) == "AlphaPlugin")
        #expect(Self.answerer(try await Self.fetch([alpha, beta], environment: ["HOST_RANKS": "DIR/\(beta.fileName):300"])) == "AlphaPlugin")
        #expect(Self.answerer(try await Self.fetch([alpha, beta], environment: ["HOST_RANKS": " DIR/\(alpha.fileName):marginal , DIR/\(beta.fileName):secondary"])) == "BetaPlugin")
        let bad = try await Self.fetch([alpha, beta], environment: ["HOST_RANKS": "BetaPlugin=300"])
        #expect(bad.status == 64)
        #expect(bad.stderrLines.first
            == "host: error: HOST_RANKS has 'BetaPlugin=300', which is not PLUGIN:RANK; separate entries with commas, e.g. HOST_RANKS=BitstampPlugin:primary,EthereumPlugin:0")
    }

    @Test("Rank 0 is never asked unless named with --source")
    func rankZero() async throws {
        // Alpha would fail if asked; at rank 0 it is not, and Beta answers with no warning.
        let alpha = Self.source("AlphaPlugin", [#"-DFIXTURE_FAILS="asked""#])
        let beta = Self.beta
        let skipped = try await Self.fetch([alpha, beta], environment: ["HOST_RANKS": "DIR/\(alpha.fileName):0"])
        #expect(skipped.status == 0)
        #expect(Self.answerer(skipped) == "BetaPlugin")
        #expect(skipped.stderrLines.isEmpty)

        let named = try await Self.fetch([alpha, beta], ["--source", "DIR/\(alpha.fileName)"], environment: ["HOST_RANKS": "DIR/\(alpha.fileName):0"])
        #expect(named.status == 1)
        #expect(named.stderrLines == ["host: error: SRC: asked"])

        let alone = try await Self.fetch([alpha], environment: ["HOST_RANKS": "DIR/\(alpha.fileName):none"])
        #expect(alone.status == 1)
        let file = "DIR/\(alpha.fileName)"
        #expect(alone.stderrLines == [
            "host: error: SRC: SRC is provided only at rank 0, which is never asked unless named (\(file)); pass --source \(file), or give it a rank with HOST_RANKS=\(file):128"
        ])

        let directory = try await FixturePlugins.directory(containing: [alpha, beta])
        let listed = try await CommandRunner.host(
            ["list-fetchers", "--format", "json", "--plugins-dir", directory.path], environment: ["HOST_RANKS": "\(directory.path)/\(alpha.fileName):0"])
        let rows = try Self.rows(listed.stdout)
        #expect(rows.map { $0["plugin"] as? String } == ["BetaPlugin", "AlphaPlugin"])
        #expect(rows.map { $0["rank"] as? Int } == [128, 0])
        #expect(rows.map { $0["default"] as? Bool } == [true, false])
    }

    @Test("--source asks that plugin alone, whatever its rank; an unknown one is one line naming the sources")
    func namedSource() async throws {
        let alpha = Self.answering("AlphaPlugin", "1.00")
        let beta = Self.beta
        #expect(Self.answerer(try await Self.fetch([alpha, beta], ["--source", "DIR/\(beta.fileName)"])) == "BetaPlugin")
        let unknown = try await Self.fetch([alpha, beta], ["--source", "GammaPlugin"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines == [
            "host: error: SRC: no source named GammaPlugin provides SRC; pass --source with one of its sources: DIR/\(alpha.fileName), DIR/\(beta.fileName) "
                + "(a name selects only plugins someone vouched for; any other is named by its file)"
        ])
    }

    // MARK: Hedging

    @Test("With --hedge, a slow first source does not hold the answer: the next is asked too, and its answer wins")
    func hedge() async throws {
        // Alpha would answer after 60 s. Without hedging its answer would win, or the run outlive its
        // deadline; so the test bounds the run and checks who answered, and never judges a speed.
        let slowAlpha = Self.answering("AlphaPlugin", "1.00", ["-DFIXTURE_ANSWER_AFTER_MS=60000", "-pthread"])
        let output = try await Self.fetch(
            [slowAlpha, Self.beta], ["--hedge", "0.2", "--timeout", "120", "--format", "json"], deadline: .seconds(50))
        #expect(output.status == 0, "\(output.stderr)")
        let row = try #require(try Self.rows(output.stdout).first)
        #expect(row["plugin"] as? String == "BetaPlugin")
        #expect(row["attempts"] as? [[String: String]] == [
            ["plugin": "AlphaPlugin", "status": "abandoned"],
            ["plugin": "BetaPlugin", "status": "answered", "amount": "2.00"],
        ])
        #expect(output.stderrLines.isEmpty)
    }

    // MARK: Every source

    @Test("--all-sources prints each source's amount, then the median and spread, exact", arguments: [
        (["1.00", "2.00", "3.50"], "2.00", "median of 3, spread 125.00%"),
        (["1.00", "2.00"], "1.50", "median of 2, spread 66.67%"),
        (["2718.281828459045235360287", "2718.281828459045235360289"], "2718.281828459045235360288", "median of 2, spread 0.00%"),
    ])
    func everySource(amounts: [String], median: String, note: String) async throws {
        let names = ["AlphaPlugin", "BetaPlugin", "GammaPlugin"]
        let fixtures = zip(names, amounts).map { Self.answering($0, $1) }
        // Nobody vouched for these sources: only --count-unvouched counts them in the median.
        let output = try await Self.fetch(fixtures, ["--all-sources", "--count-unvouched"])
        #expect(output.status == 0, "\(output.stderr)")
        let width = max(amounts.map(\.count).max() ?? 0, "AMOUNT".count)
        func row(_ amount: String, _ plugin: String) -> String {
            "SRC     USD       " + amount + String(repeating: " ", count: width - amount.count) + "  " + plugin
        }
        let expected = ["SYMBOL  CURRENCY  " + "AMOUNT" + String(repeating: " ", count: width - 6) + "  PLUGIN"]
            + zip(amounts, names).map { row($0, $1) } + [row(median, note)]
        #expect(output.stdout == expected.joined(separator: "\n") + "\n")

        let json = try await Self.fetch(fixtures, ["--all-sources", "--count-unvouched", "--format", "json"])
        let entry = try #require(try Self.rows(json.stdout).first)
        #expect(entry["median"] as? String == median)
        #expect((entry["sources"] as? [[String: Any]])?.map { $0["amount"] as? String } == amounts)
        #expect((entry["sources"] as? [[String: Any]])?.map { $0["counted"] as? Bool } == amounts.map { _ in true })
    }

    @Test("--max-spread exits 1 with one line when the sources disagree by more, and 0 when they do not")
    func maxSpread() async throws {
        let fixtures = [Self.answering("AlphaPlugin", "1.00"), Self.answering("BetaPlugin", "2.00"), Self.answering("GammaPlugin", "3.50")]
        // Nobody vouched for these sources: only --count-unvouched counts them.
        let over = try await Self.fetch(fixtures, ["--max-spread", "100", "--count-unvouched"])
        #expect(over.status == 1)
        #expect(over.stdout.hasSuffix("SRC     USD       2.00    median of 3, spread 125.00%\n"))
        #expect(over.stderrLines == [
            "host: error: SRC: its 3 sources disagree by 125.00%, more than --max-spread 100 allows (median 2.00); see each source's amount above, or raise --max-spread"
        ])
        let within = try await Self.fetch(fixtures, ["--max-spread", "125", "--count-unvouched"])
        #expect(within.status == 0)
        #expect(within.stderrLines.isEmpty)

        let json = try await Self.fetch(fixtures, ["--max-spread", "100", "--count-unvouched", "--format", "json"])
        #expect(json.status == 1)
        let entry = try #require(try Self.rows(json.stdout).first)
        #expect(entry["spread"] as? String == "125.00")
        #expect(json.stderrLines.count == 1)
    }

    @Test("Flags that contradict each other are one usage line", arguments: [
        (["--source", "A", "--all-sources"], "--source A asks one source and --all-sources asks them all; drop one of the two"),
        (["--hedge", "1", "--max-spread", "1"], "--hedge asks the next source when one is slow, which asking every source at once leaves none to; drop --hedge"),
        (["--max-spread", "1%"], "--max-spread '1%' is not a percentage; give a plain decimal such as 0.5 or 2"),
        (["--count-unvouched"], "--count-unvouched counts sources in a median, which only --all-sources or --max-spread computes; add --all-sources, or drop --count-unvouched"),
    ])
    func usage(arguments: [String], message: String) async throws {
        let output = try await CommandRunner.host(["fetch", "SRC"] + arguments)
        #expect(output.status == 64)
        #expect(["Error: \(message)", "host: error: \(message)"].contains(output.stderrLines.first ?? ""), "\(output.stderr)")
    }
}
