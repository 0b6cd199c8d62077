import Foundation
import Testing

/// Issue 34, "Strangers never hold the user's work": a fetch of a symbol
/// the bundled plugins provide prints its answer while new files nobody
/// vouched for are still scanned beside it, for the next run; what those
/// scans find (a finished scan, a stolen name) is kept and said in the run
/// that found it. In the default mode (registry cache on, plugins placed by
/// trust), the bundled Coinbase plugin asking a loopback server.
@Suite("A fetch answers while strangers are scanned beside it, end to end", .timeLimit(.minutes(10)))
struct FetchBesideScansEndToEndTests {
    /// A Coinbase that answers ETH 3000.00 at once.
    static func coinbase() async throws -> LoopbackPriceServer {
        try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-USD/spot": .respond(status: 200, body: #"{"data":{"base":"ETH","currency":"USD","amount":"3000.00"}}"#)
        ])
    }

    static let priceRow = "ETH     USD       3000.00  EthereumPlugin"

    /// A working directory whose `./plugins` holds the quick DOGE plugin
    /// (scanned first) and six that hang while registering; its user's
    /// environment, shared by every run.
    static func folder() async throws -> (work: URL, plugins: URL, user: [String: String]) {
        let plugins = try await FixturePlugins.directory(
            containing: [StrangerScansEndToEndTests.quick] + (1...6).map(StrangerScansEndToEndTests.hanging))
        let work = plugins.deletingLastPathComponent()
        let user = CommandRunner.userEnvironment(of: work)
        for directory in user.values { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        return (work, plugins, user)
    }

    /// Whether the next run describes the quick plugin from the cache this one wrote.
    static func quickIsCached(in work: URL, user: [String: String]) async throws -> Bool {
        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--load-timeout", "1"], environment: user, in: work)
        let rows = try HostFixtures.pluginRows(listed.stdout)
        return rows[StrangerScansEndToEndTests.quick.fileName]?["cached"] as? Bool == true
    }

    @Test("Six hanging strangers: the price is printed while they are still scanned, the run ends at --timeout with exit 0, and the next run keeps what was scanned")
    func answerComesBeforeTheScansEnd() async throws {
        let server = try await Self.coinbase()
        let (work, _, user) = try await Self.folder()

        // --timeout 5, not the issue's 2 (StrangerScansEndToEndTests runs
        // that): with the whole suite beside it, a loopback fetch once took
        // more than Coinbase's 1 s share of 2.
        let run = try InterleavedHost(["fetch", "ETH", "--timeout", "5", "--api-base-url", server.baseURL, "-v"], environment: user, in: work)
        let ended = try await run.finish()
        await server.stop()

        #expect(ended.status == 0, "\(ended.lines)")
        #expect(!ended.signalled)
        // stdout and stderr share one pipe, so the lines are in the order the
        // host wrote them: the answer, then the line the scans write when
        // --timeout stops them.
        let answer = try #require(ended.lines.firstIndex(of: Self.priceRow), "\(ended.lines)")
        let stopped = try #require(ended.lines.firstIndex { $0.contains(StrangerScansEndToEndTests.unscannedSix.dropFirst("host: warning: ".count)) }, "\(ended.lines)")
        #expect(answer < stopped, "\(ended.lines)")
        #expect(ended.lines.filter { $0.hasPrefix("ETH ") || $0.hasPrefix("SYMBOL ") } == ["SYMBOL  CURRENCY  AMOUNT   PLUGIN", Self.priceRow])

        #expect(try await Self.quickIsCached(in: work, user: user))
    }

    @Test("Ctrl-C once the price is printed, while the strangers are still scanned, keeps each scan that finished")
    func interruptAfterTheAnswerKeepsProgress() async throws {
        let server = try await Self.coinbase()
        let (work, plugins, user) = try await Self.folder()
        let quick = plugins.appending(path: StrangerScansEndToEndTests.quick.fileName).path

        // --timeout 60: the scans of the hanging six outlast the Ctrl-C.
        let run = try InterleavedHost(["fetch", "ETH", "--timeout", "60", "--api-base-url", server.baseURL, "-v"], environment: user, in: work)
        let written = "\(quick): scanned, written to the plugin cache"
        let before = try await run.lines { $0 == Self.priceRow || $0.contains(written) }
        let first = try #require(before?.last)
        // Whichever came first, wait for the other.
        let priceFirst = first == Self.priceRow
        let row = Self.priceRow
        #expect(try await run.lines { priceFirst ? $0.contains(written) : $0 == row } != nil)
        kill(run.pid, SIGINT)
        let ended = try await run.finish()
        await server.stop()

        #expect(ended.signalled && ended.status == SIGINT, "\(ended.lines)")
        // The scans were still running: --timeout had not stopped them.
        #expect(!ended.lines.contains { $0.contains("not scanned yet") }, "\(ended.lines)")
        #expect(try await Self.quickIsCached(in: work, user: user))
    }

    /// A stranger that declares the bundled Bitstamp plugin's name.
    static let thief = IdentityEndToEndTests.stranger("libthief.so", name: "BitstampPlugin")

    @Test("A stranger the background scan finds taking a bundled plugin's name is refused in that run, one line naming both files")
    func nameTheftSaidInTheRunThatFoundIt() async throws {
        let (directory, _) = try await IdentityEndToEndTests.folder([Self.thief])
        let refusal = IdentityEndToEndTests.refusal(directory, file: "libthief.so", name: "BitstampPlugin", holder: "Bitstamp")

        // New to the cache: scanned beside the fetch, which the bundled Coinbase answers.
        let first = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", HostFixtures.coinbase], asUserOf: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "SYMBOL  CURRENCY  AMOUNT                      PLUGIN\n\(HostFixtures.ethRow)\n")
        #expect(first.stderrLines == [refusal])

        // The next run refuses it from the cache, as every run does.
        let next = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", HostFixtures.coinbase], asUserOf: directory)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderrLines == [refusal])
    }

    /// A stranger that answers ETH 1.00 after 5 s: more than a third of
    /// --timeout 10, which an equal share among the three sources would give it.
    static let slowStranger = FixturePlugins.Fixture(
        fileName: "libSlowStranger.so",
        defines: ["-DFIXTURE_NAME=\"StrangerPlugin\"", "-DFIXTURE_SYMBOL=\"ETH\"", "-DFIXTURE_AMOUNT=\"1.00\"", "-DFIXTURE_ANSWER_AFTER_MS=5000"])

    /// A 404 is final, where a 503 would be retried within the source's share.
    @Test("Vouched sources that fail at once leave the rest of --timeout 10 to a stranger, which answers in 5 s and is labelled unvouched")
    func strangerGetsTheRestOfTheTimeout() async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-USD/spot": .respond(status: 404, body: "gone"),
            "/api/v2/ticker/ethusd/": .respond(status: 404, body: "gone"),
        ])
        let (directory, _) = try await IdentityEndToEndTests.folder([Self.slowStranger])
        try await CommandRunner.scanned(directory)
        let path = directory.appending(path: "plugins/libSlowStranger.so").path

        let output = try await CommandRunner.host(["fetch", "ETH", "--timeout", "10", "--api-base-url", server.baseURL], asUserOf: directory)
        let json = try await CommandRunner.host(
            ["fetch", "ETH", "--timeout", "10", "--format", "json", "--api-base-url", server.baseURL], asUserOf: directory)
        await server.stop()

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nETH     USD       1.00    StrangerPlugin (unvouched, \(path))\n")
        #expect(output.stderrLines == [
            #"host: warning: ETH: EthereumPlugin failed: Coinbase answered HTTP 404 for ETH-USD: the response body was "gone""#,
            #"host: warning: ETH: BitstampPlugin failed: Bitstamp answered HTTP 404 for ETH/USD: the response body was "gone""#,
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let row = try #require(try StrangerConsensusEndToEndTests.rows(json.stdout).first)
        #expect(row["plugin"] as? String == "StrangerPlugin")
        #expect(row["path"] as? String == path)
        #expect(row["vouchedBy"] as? String == "nobody")
        let attempts = (row["attempts"] as? [[String: String]])?.map { $0.filter { ["plugin", "status", "vouchedBy"].contains($0.key) } }
        #expect(attempts == [
            ["plugin": "EthereumPlugin", "status": "failed", "vouchedBy": "bundled"],
            ["plugin": "BitstampPlugin", "status": "failed", "vouchedBy": "bundled"],
            ["plugin": "StrangerPlugin", "status": "answered", "vouchedBy": "nobody"],
        ], "\(json.stdout)")
    }
}
