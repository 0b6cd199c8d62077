import Foundation
@testable import PluginHost
import Testing
import WorkerProtocol

/// What a plugin may ask of its worker and its host has a cap: threads,
/// `http_get` requests at once and per fetch, log lines per run, and the
/// length of its text a host message repeats. Each flood
/// (`Tests/Fixtures/CPlugins/request_floods.c`) runs with the host's
/// defaults, beside a well-behaved plugin that must not notice, and
/// in-process too where the cap applies there.
@Suite("Caps on what a plugin may ask, end to end", .timeLimit(.minutes(10)))
struct HostRequestCapsEndToEndTests {
    static func flood(_ name: String, _ defines: [String] = []) -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(
            fileName: "flood-\(name.lowercased()).so", source: "Tests/Fixtures/CPlugins/request_floods.c", defines: ["-DFLOOD_\(name)"] + defines)
    }

    /// `host fetch SYMBOLS --format json`, with the host's defaults unless `flags` say otherwise.
    ///
    /// NB: a flood takes a second or two alone, and far longer while other
    /// tests load both cores and fill the pipes the test reads: the fetch
    /// timeout and the run's deadline only catch a hang, at 30 times that.
    static func fetch(
        _ symbols: [String], from fixtures: [FixturePlugins.Fixture], api: String, flags: [String] = []
    ) async throws -> (rows: [String: [String: String]], output: CommandRunner.Output) {
        let directory = try await FixturePlugins.directory(containing: fixtures)
        let output = try await CommandRunner.host(
            ["fetch"] + symbols + ["--format", "json", "--timeout", "60", "--load-timeout", "60", "--plugins-dir", directory.path, "--api-base-url", api] + flags,
            deadline: .seconds(90))
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        return (Dictionary(uniqueKeysWithValues: rows.compactMap { row in row["symbol"].map { ($0, row) } }), output)
    }

    static let inWorkerOrInProcess: [[String]] = [[], ["--no-isolate"]]

    static func spot(_ symbol: String, _ amount: String) -> String {
        #"{"data":{"base":"\#(symbol)","currency":"USD","amount":"\#(amount)"}}"#
    }

    @Test(
        "3,000 threads in one worker: the kernel stops it below 300 tasks, and the host and the other plugin fetch as usual",
        .enabled("the running kernel cannot cap a PID namespace's tasks") { await KernelSandbox.has(.taskCap) }
    )
    func threads() async throws {
        let prices = try SandboxEndToEndTests.priceFiles(["DOGE": "0.25"])
        let (rows, output) = try await Self.fetch(
            ["THREADS", "DOGE"], from: [Self.flood("THREADS"), FixturePlugins.Variant.cPlugin.fixture], api: prices.absoluteString)

        let message = try #require(rows["THREADS"]?["error"])
        let started = try #require(message.firstMatch(of: /^pthread_create: (\d+) of 3000 started, then Resource temporarily unavailable$/), "\(message)")
        let count = try #require(Int(started.output.1))
        // 300 tasks in its PID namespace, some of them the worker's own threads.
        #expect((250..<300).contains(count), "\(message)")
        #expect(rows["DOGE"]?["amount"] == "0.25", "\(rows["DOGE"] ?? [:])")
        #expect(output.status == 1)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test("20,000 http_get calls: at most 8 wait at once and 32 are made for one fetch; the rest are refused at once, and the other plugin fetches", arguments: inWorkerOrInProcess)
    func httpFlood(flags: [String]) async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/HTTP-USD/spot": .respond(status: 200, body: Self.spot("HTTP", "1.00")),
            "/v2/prices/DOGE-USD/spot": .respond(status: 200, body: Self.spot("DOGE", "0.25")),
        ])
        let (rows, output) = try await Self.fetch(
            ["HTTP", "DOGE"], from: [Self.flood("HTTP"), FixturePlugins.Variant.cPlugin.fixture], api: server.baseURL, flags: flags)
        let requests = server.requests
        await server.stop()

        let outstanding =
            "refused http_get: FloodHTTP already has 8 requests waiting for an answer, the most a plugin may have at once; ask again once one is answered"
        let message = try #require(rows["HTTP"]?["error"])
        let counted = try #require(message.firstMatch(of: /^http_get: 20000 asked, 20000 answered, (\d+) succeeded; the first error: (.*)$/), "\(message)")
        let succeeded = try #require(Int(counted.output.1))
        #expect(String(counted.output.2) == outstanding)
        #expect((8...32).contains(succeeded), "\(message)")
        #expect(requests.filter { $0 == "/v2/prices/HTTP-USD/spot" }.count == succeeded)
        #expect(rows["DOGE"]?["amount"] == "0.25", "\(rows["DOGE"] ?? [:])")
        #expect(output.status == 1)
        // One warning per cap reached, not one per refusal.
        let warnings = output.stderrLines.filter { $0.contains("refused http_get") }
        #expect(warnings.count == output.stderrLines.count, "\(output.stderr)")
        #expect((1...2).contains(warnings.count), "\(output.stderr)")
        #expect(warnings.contains { $0.hasSuffix(outstanding) }, "\(output.stderr)")
    }

    @Test("20,000 httpGet frames a plugin writes past its worker's services are capped by the host itself: 8 at once, 32 for the fetch")
    func httpFrameFlood() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/FRAMES-USD/spot": .respond(status: 200, body: Self.spot("FRAMES", "1.00"))])
        let frame = try Frame.encode(WorkerToHost.httpGet(HTTPRequestFrame(id: 1_000_000, url: server.baseURL + "/v2/prices/FRAMES-USD/spot", timeoutMilliseconds: 5000)))
        let hex = frame.map { String(format: "%02x", $0) }.joined()
        let (rows, output) = try await Self.fetch(["FRAMES"], from: [Self.flood("HTTP_FRAMES", ["-DFLOOD_FRAME_HEX=\"\(hex)\""])], api: server.baseURL)
        let requests = server.requests
        await server.stop()

        #expect(rows["FRAMES"]?["error"] == "wrote 20000 httpGet frames")
        // The host read every frame, started 8 requests, refused the 9th
        // while they waited, and made no more than the fetch allows. (It may
        // exit before the last ones reach the server.)
        #expect(requests.count <= 32, "\(requests.count) requests reached the server")
        let outstanding =
            "host: warning: plugin FloodFRAMES: refused http_get: FloodFRAMES already has 8 requests waiting for an answer, the most a plugin may have at once; ask again once one is answered"
        #expect(output.stderrLines.first == outstanding, "\(output.stderr)")
        #expect(output.stderrLines.count <= 2, "\(output.stderr)")
        #expect(output.status == 1)
    }

    @Test("20,000 log lines of 2 KiB under -v: the first 1,000 are shown, then one line says how many were dropped; the other plugin fetches", arguments: inWorkerOrInProcess)
    func logFlood(flags: [String]) async throws {
        let prices = try SandboxEndToEndTests.priceFiles(["DOGE": "0.25"])
        // A plugin's own lines show only with -v, which adds the host's debug lines.
        let (rows, output) = try await Self.fetch(
            ["LOG", "DOGE"], from: [Self.flood("LOG"), FixturePlugins.Variant.cPlugin.fixture], api: prices.absoluteString, flags: flags + ["-v"])

        #expect(rows["LOG"]?["error"] == "logged 20000 lines")
        #expect(rows["DOGE"]?["amount"] == "0.25", "\(rows["DOGE"] ?? [:])")
        let lines = output.unlabelled.stderrLines
        let shown = lines.filter { $0.hasPrefix("host: [FloodLOG] warning: line ") }
        #expect(shown.count == 1000)
        #expect(shown.first?.hasPrefix("host: [FloodLOG] warning: line 0 xxx") == true)
        #expect(lines.filter { $0.hasPrefix("host: [FloodLOG] ") }.count == 1000, "\(lines.prefix(3))")
        #expect(lines.contains("host: warning: plugin FloodLOG: dropped 19000 of its log lines, past the 1000 a plugin may write in one run"))
        #expect(output.stderr.utf8.count < 2_200_000)
    }

    @Test("20,000 lines on a worker's stderr: they are its log lines, capped the same way, and none reaches the host's stderr unannounced")
    func outputFlood() async throws {
        let (rows, output) = try await Self.fetch(["OUTPUT"], from: [Self.flood("OUTPUT")], api: HostFixtures.coinbase)

        #expect(rows["OUTPUT"]?["error"] == "wrote 20000 lines")
        // Named as its log lines are: with its file, since nobody vouched for it.
        let lines = output.unlabelled.stderrLines
        let shown = lines.filter { $0.hasPrefix("host: [FloodOUTPUT] warning: output line ") }
        #expect(shown.count == 1000)
        #expect(shown.first == "host: [FloodOUTPUT] warning: output line 0")
        #expect(lines.last == "host: warning: plugin FloodOUTPUT: dropped 19000 of its log lines, past the 1000 a plugin may write in one run")
        #expect(lines.count == 1001)
    }

    @Test("A 1 MiB URL is refused before it is read, and the refusal repeats its first 256 bytes only", arguments: inWorkerOrInProcess)
    func longURL(flags: [String]) async throws {
        let (rows, output) = try await Self.fetch(["URL"], from: [Self.flood("LONG_URL")], api: HostFixtures.coinbase, flags: flags)

        // The fixture pads the URL with a's to 1 MiB in all.
        let start = "\(HostFixtures.coinbase)/v2/prices/URL-USD/spot"
        let url = start + String(repeating: "a", count: (1 << 20) - start.utf8.count)
        let shown = String(decoding: url.utf8.prefix(256), as: UTF8.self)
        let refusal = "refused http_get of \(shown)… (cut; 1048576 bytes in all): it is 1048576 bytes long, and a URL may be at most 8192"
        #expect(rows["URL"]?["error"] == refusal)
        #expect(output.stderrLines == ["host: warning: plugin FloodURL: \(refusal)"])
        #expect(output.status == 1)
    }
}
