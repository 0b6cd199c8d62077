import Foundation
import Testing

/// Runs the built `host` executable as a user would, against a loopback
/// HTTP server each test starts itself.
@Suite("host, end to end", .timeLimit(.minutes(10)))
struct HostEndToEndTests {
    /// For the tests of one source speaking Coinbase's API: the bundled
    /// Bitstamp plugin, a second source of BTC and ETH, is never asked.
    static let coinbaseOnly = ["HOST_RANKS": "BitstampPlugin:0"]

    static func spot(_ base: String, _ amount: String, currency: String = "USD") -> String {
        #"{"data":{"base":"\#(base)","currency":"\#(currency)","amount":"\#(amount)"},"warnings":[{"id":"missing_version","message":"Please supply API version (YYYY-MM-DD) as CB-VERSION header"}]}"#
    }

    @Test("list-fetchers finds the bundled plugins with no flag, no env var and no copy step")
    func listFetchersDefaultDiscovery() async throws {
        let output = try await CommandRunner.host(["list-fetchers"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            SYMBOL  NAME      PLUGIN          RANK  DEFAULT
            BTC     Bitcoin   BitcoinPlugin   256   yes
            BTC     Bitcoin   BitstampPlugin  128   -
            ETH     Ethereum  EthereumPlugin  256   yes
            ETH     Ethereum  BitstampPlugin  128   -

            """)
        #expect(output.stderr.isEmpty)
    }

    @Test("list-fetchers --format json is an array of {symbol, name, plugin, path, vouchedBy, rank, declaredRank, rankReason?, default}")
    func listFetchersJSON() async throws {
        let output = try await CommandRunner.host(["list-fetchers", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [NSDictionary])
        let (bitcoin, bitstamp, ethereum) = (FixturePlugins.bundledPlugin("Bitcoin").path, FixturePlugins.bundledPlugin("Bitstamp").path, FixturePlugins.bundledPlugin("Ethereum").path)
        #expect(rows == [
            ["symbol": "BTC", "name": "Bitcoin", "plugin": "BitcoinPlugin", "path": bitcoin, "vouchedBy": "bundled", "rank": 256, "declaredRank": 256, "default": true],
            ["symbol": "BTC", "name": "Bitcoin", "plugin": "BitstampPlugin", "path": bitstamp, "vouchedBy": "bundled", "rank": 128, "declaredRank": 128, "default": false],
            ["symbol": "ETH", "name": "Ethereum", "plugin": "EthereumPlugin", "path": ethereum, "vouchedBy": "bundled", "rank": 256, "declaredRank": 256, "default": true],
            ["symbol": "ETH", "name": "Ethereum", "plugin": "BitstampPlugin", "path": bitstamp, "vouchedBy": "bundled", "rank": 128, "declaredRank": 128, "default": false],
        ])
    }

    @Test("A ./plugins directory is searched too: drop a .so in and it appears")
    func dropInPluginsDirectory() async throws {
        let plugins = try await FixturePlugins.directory(with: [.cPlugin])
        let output = try await CommandRunner.host(["list-fetchers", "--format", "json"], in: plugins.deletingLastPathComponent())
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["symbol"] as? String } == ["BTC", "BTC", "DOGE", "ETH", "ETH"])
        #expect(rows.map { $0["plugin"] as? String }[2] == "CDogecoinPlugin")
    }

    @Test("fetch ETH over real HTTP prints the exact amount")
    func fetchOverHTTP() async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-USD/spot": .respond(status: 200, body: Self.spot("ETH", "2718.281828459045235360287"))
        ])
        defer { Task { await server.stop() } }
        let output = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", server.baseURL])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            SYMBOL  CURRENCY  AMOUNT                      PLUGIN
            ETH     USD       2718.281828459045235360287  EthereumPlugin

            """)
        #expect(server.requests == ["/v2/prices/ETH-USD/spot"])
    }

    @Test("Several symbols are fetched concurrently and reported in the order asked")
    func fetchConcurrently() async throws {
        // The server holds every answer until both requests are open at once,
        // so a host that fetched one after the other would time out. The
        // timeout is not under test: 120 s holds at any load, and the hold
        // (the server's hang guard) is longer still.
        let routes: [String: LoopbackPriceServer.Reply] = [
            "/v2/prices/BTC-EUR/spot": .respondWhenConcurrent(count: 2, limit: .seconds(240), status: 200, body: Self.spot("BTC", "100000.01", currency: "EUR")),
            "/v2/prices/ETH-EUR/spot": .respondWhenConcurrent(count: 2, limit: .seconds(240), status: 200, body: Self.spot("ETH", "9999999.76", currency: "EUR")),
        ]
        let server = try await LoopbackPriceServer(routes: routes)
        defer { Task { await server.stop() } }
        let output = try await CommandRunner.host(
            ["fetch", "ETH", "BTC", "--currency", "eur", "--timeout", "120", "--format", "json"],
            environment: ["HOST_API_BASE_URL": server.baseURL]
        )
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [NSDictionary])
        // Each symbol has two sources, so each says which it asked: the first answered.
        let (bitcoin, ethereum) = (FixturePlugins.bundledPlugin("Bitcoin").path, FixturePlugins.bundledPlugin("Ethereum").path)
        #expect(rows == [
            [
                "symbol": "ETH", "currency": "EUR", "amount": "9999999.76", "plugin": "EthereumPlugin", "path": ethereum, "vouchedBy": "bundled",
                "attempts": [["plugin": "EthereumPlugin", "path": ethereum, "vouchedBy": "bundled", "status": "answered", "amount": "9999999.76"]],
            ],
            [
                "symbol": "BTC", "currency": "EUR", "amount": "100000.01", "plugin": "BitcoinPlugin", "path": bitcoin, "vouchedBy": "bundled",
                "attempts": [["plugin": "BitcoinPlugin", "path": bitcoin, "vouchedBy": "bundled", "status": "answered", "amount": "100000.01"]],
            ],
        ])
        #expect(server.maximumInFlight == 2)
    }

    @Test("An HTTP error shows the status and the API's own message, and exits 1")
    func httpError() async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-XYZ/spot": .respond(status: 400, body: #"{"errors":[{"id":"invalid_request","message":"Invalid currency (XYZ)"}]}"#)
        ])
        defer { Task { await server.stop() } }
        let output = try await CommandRunner.host(["fetch", "ETH", "--currency", "XYZ", "--api-base-url", server.baseURL], environment: Self.coinbaseOnly)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("host: error: ETH: "))
        #expect(output.stderr.contains("400"))
        #expect(output.stderr.contains("Invalid currency (XYZ)"))
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
    }

    @Test("A malformed body says the response could not be decoded")
    func malformedBody() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/BTC-USD/spot": .respond(status: 200, body: "<html>oops</html>")])
        defer { Task { await server.stop() } }
        let output = try await CommandRunner.host(["fetch", "BTC", "--format", "json", "--api-base-url", server.baseURL], environment: Self.coinbaseOnly)
        #expect(output.status == 1)
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        #expect(rows.first?["symbol"] == "BTC")
        #expect(rows.first?["error"]?.lowercased().contains("could not decode") == true, "\(rows)")
    }

    @Test("A server that never answers ends in a timeout that says how long it waited")
    func timeout() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/ETH-USD/spot": .hang])
        defer { Task { await server.stop() } }
        let started = ContinuousClock.now
        let output = try await CommandRunner.host(["fetch", "ETH", "--timeout", "1", "--api-base-url", server.baseURL], environment: Self.coinbaseOnly)
        #expect(output.status == 1)
        #expect(output.stderr.contains("timed out after 1 s"), "\(output.stderr)")
        // Timing assumption: only a host that ignored --timeout waits for the
        // server, until the run's deadline; 1 s idle, over 30 s once in a busy suite.
        #expect(ContinuousClock.now - started < .seconds(120))
    }

    @Test("A partial failure still prints the symbols that worked")
    func partialFailure() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/BTC-USD/spot": .respond(status: 200, body: Self.spot("BTC", "15840.01"))])
        defer { Task { await server.stop() } }
        let output = try await CommandRunner.host(["fetch", "BTC", "ETH", "--format", "json", "--api-base-url", server.baseURL], environment: Self.coinbaseOnly)
        #expect(output.status == 1)
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        #expect(rows.map { $0["symbol"] } == ["BTC", "ETH"])
        #expect(rows[0]["amount"] == "15840.01")
        #expect(rows[1]["error"]?.contains("404") == true)
    }

    @Test("An unknown symbol exits 2 and lists the available ones")
    func unknownSymbol() async throws {
        let output = try await CommandRunner.host(["fetch", "XRP", "--api-base-url", "file:///nonexistent"])
        #expect(output.status == 2)
        #expect(output.stderr == "host: error: XRP: unknown symbol XRP; available symbols: BTC, ETH\n")
    }

    @Test("file:// fixtures shipped in the repository work offline")
    func offlineFixtures() async throws {
        let fixtures = FixturePlugins.repositoryRoot.appending(path: "Fixtures/coinbase")
        let output = try await CommandRunner.host(["fetch", "BTC", "ETH", "--format", "json", "--api-base-url", fixtures.absoluteString])
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["symbol"] as? String } == ["BTC", "ETH"])
        #expect(rows.map { $0["amount"] as? String } == ["100000.10", "2718.281828459045235360287"])
    }

    @Test("A bad --api-base-url is one line and a usage exit code", arguments: ["ftp://example.com", "not a url", "http://"])
    func badAPIBaseURL(url: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers", "--api-base-url", url])
        #expect(output.status == 64)
        #expect(output.stderr.contains("is not an http, https or file URL"), "\(output.stderr)")
        #expect(!output.stderr.contains("Backtrace"))
    }

    @Test("Broken plugins get one stderr line naming the file; list-plugins shows them as failed")
    func brokenPluginsEndToEnd() async throws {
        let directory = try await FixturePlugins.directory(
            with: [.wrongABI, .cPlugin], bundled: ["Ethereum"], extraFiles: ["junk.so": Data("junk".utf8)])
        let listed = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("DOGE") && listed.stdout.contains("ETH"))
        let lines = listed.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(listed.stderr)")
        #expect(lines.contains { $0.contains("\(directory.path)/junk.so") })
        #expect(lines.contains { $0.contains("\(directory.path)/wrong-abi.so") && $0.contains("ABI version 99") })

        let plugins = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(plugins.stdout.utf8)) as? [[String: Any]])
        // Files load in file-name order: junk.so, libCDogecoinPlugin.so, libEthereumPlugin.so, wrong-abi.so.
        #expect(rows.map { $0["status"] as? String } == ["failed", "loaded", "loaded", "failed"])
        #expect(rows.map { $0["name"] as? String } == ["junk.so", "CDogecoinPlugin", "EthereumPlugin", "wrong-abi.so"])
        #expect(rows[0]["error"] as? String == "not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it")
        #expect(rows[1]["fetchers"] as? [String] == ["DOGE"])
        #expect(rows[2]["version"] as? String == "1.0.0")
        #expect((rows[3]["error"] as? String)?.contains("ABI version 99") == true)
    }

    @Test("graph prints the registry as DOT and as Mermaid: each fetcher depends on its plugin")
    func graph() async throws {
        let dot = try await CommandRunner.host(["graph"])
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(dot.stdout.hasPrefix("digraph Patchbay {"))
        // Each symbol's default source, then the next asked, and each source's plugin.
        #expect(dot.stdout.contains(#"n2 [label="PluginFetcher(name: \"ETH #2\")\n(singleton)"];"#), "\(dot.stdout)")
        #expect(dot.stdout.contains(#"n3 [label="PluginFetcher(name: \"ETH\")\n(singleton)"];"#), "\(dot.stdout)")
        #expect(dot.stdout.contains(#"n5 [label="PluginIdentity(name: \"BitstampPlugin\")\n(singleton)"];"#))
        #expect(dot.stdout.contains(#"n6 [label="PluginIdentity(name: \"EthereumPlugin\")\n(singleton)"];"#))
        #expect(["n3 -> n2;", "n3 -> n6;", "n2 -> n5;", "n1 -> n0;", "n1 -> n4;", "n0 -> n5;"].allSatisfy { dot.stdout.contains($0) })

        let mermaid = try await CommandRunner.host(["graph", "--format", "mermaid"])
        #expect(mermaid.status == 0)
        #expect(mermaid.stdout.hasPrefix("graph LR\n"))
        #expect(mermaid.stdout.contains("PluginFetcher(name: #quot;BTC#quot;)"))
        #expect(mermaid.stdout.contains("n3 --> n2"))
    }
}
