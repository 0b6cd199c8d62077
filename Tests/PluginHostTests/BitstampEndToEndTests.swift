import Foundation
import Testing

/// The bundled second source, Bitstamp, through `host`: against the shipped
/// fixtures beside Coinbase's, and against a loopback server that answers
/// in each of Bitstamp's shapes, in-process and in a worker.
@Suite("The Bitstamp plugin, end to end", .timeLimit(.minutes(5)))
struct BitstampEndToEndTests {
    static let modes: [[String]] = [["--no-isolate"], ["--isolate"]]
    static let fixtures = FixturePlugins.repositoryRoot.appending(path: "Fixtures")

    static func ticker(_ pair: String, _ last: String) -> LoopbackPriceServer.Reply {
        .respond(
            status: 200,
            body: #"{"timestamp": "1767225600", "open": "1.0", "high": "9.9", "low": "0.5", "last": "\#(last)", "volume": "12.34567890", "vwap": "2.0", "bid": "1.9", "ask": "2.1", "side": "0", "open_24": "1.5", "percent_change_24": "0.10", "pair": "\#(pair)"}"#)
    }

    @Test("The README's offline command: both sources answer from the shipped fixtures, then their exact median and spread", arguments: modes)
    func readmeOffline(flags: [String]) async throws {
        let output = try await CommandRunner.host(
            ["fetch", "ETH", "BTC", "--all-sources", "--api-base-url", Self.fixtures.appending(path: "coinbase").absoluteString,
             "--api-base-url", "BitstampPlugin=" + Self.fixtures.appending(path: "bitstamp").absoluteString] + flags)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            SYMBOL  CURRENCY  AMOUNT                      PLUGIN
            ETH     USD       2718.281828459045235360287  EthereumPlugin
            ETH     USD       2718.281828459045235360291  BitstampPlugin
            ETH     USD       2718.281828459045235360289  median of 2, spread 0.00%
            BTC     USD       100000.10                   BitcoinPlugin
            BTC     USD       100150.25                   BitstampPlugin
            BTC     USD       100075.175                  median of 2, spread 0.15%

            """)
        #expect(output.stderr.isEmpty)
    }

    @Test("Against a server: its ticker's last price, exact, and each error shape as one line", arguments: modes)
    func loopback(flags: [String]) async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/api/v2/ticker/ethusd/": Self.ticker("ETH/USD", "2718.281828459045235360291"),
            "/api/v2/ticker/btcusd/": .respond(status: 404, body: #"{"status": "error", "reason": "Not Found", "code": "API0001"}"#),
            "/api/v2/ticker/etheur/": .respond(status: 400, body: #"{"status": "error", "reason": {"__all__": ["Invalid currency pair."]}}"#),
            "/api/v2/ticker/btceur/": Self.ticker("BTC/USD", "60192"),
            "/api/v2/ticker/ethgbp/": .respond(status: 502, body: "<html>\n<head><title>502 Bad Gateway</title></head>\n</html>"),
            "/api/v2/ticker/btcgbp/": .respond(status: 403, body: #"{"error": "No permission found"}"#),
        ])
        defer { Task { await server.stop() } }
        func fetch(_ currency: String) async throws -> CommandRunner.Output {
            try await CommandRunner.host(
                ["fetch", "ETH", "BTC", "--currency", currency, "--source", "BitstampPlugin", "--api-base-url", "BitstampPlugin=\(server.baseURL)"] + flags)
        }

        let usd = try await fetch("USD")
        #expect(usd.status == 1)
        #expect(usd.stdout == "SYMBOL  CURRENCY  AMOUNT                      PLUGIN\nETH     USD       2718.281828459045235360291  BitstampPlugin\n")
        #expect(usd.stderrLines == ["host: error: BTC: Bitstamp answered HTTP 404 for BTC/USD: Not Found (API0001)"])

        let eur = try await fetch("EUR")
        #expect(eur.stdout == "")
        #expect(eur.stderrLines == [
            "host: error: ETH: Bitstamp answered HTTP 400 for ETH/EUR: Invalid currency pair.",
            "host: error: BTC: Could not decode the Bitstamp response for BTC/EUR: it quotes BTC/USD instead",
        ])

        let gbp = try await fetch("GBP")
        #expect(gbp.stderrLines == [
            #"host: error: ETH: Bitstamp answered HTTP 502 for ETH/GBP: the response body was "<html> <head><title>502 Bad Gateway</title></head> </html>""#,
            "host: error: BTC: Bitstamp answered HTTP 403 for BTC/GBP: No permission found",
        ])
        #expect(Set(server.requests) == Set(["usd", "eur", "gbp"].flatMap { ["/api/v2/ticker/eth\($0)/", "/api/v2/ticker/btc\($0)/"] }))
    }

    @Test("Bitstamp's plugin may not fetch under Coinbase's base, nor Coinbase's under Bitstamp's: each has its own")
    func basesApart() async throws {
        let listed = try await CommandRunner.host(["list-plugins", "--format", "json"])
        let rows = try HostFixtures.pluginRows(listed.stdout)
        let bitstamp = try #require(rows.values.first { $0["name"] as? String == "BitstampPlugin" })
        let ethereum = try #require(rows.values.first { $0["name"] as? String == "EthereumPlugin" })
        #expect(bitstamp["allowedURLs"] as? [String] == ["https://www.bitstamp.net"])
        #expect(bitstamp["apiBaseOrigin"] as? String == "declared")
        #expect(ethereum["allowedURLs"] as? [String] == ["https://api.coinbase.com"])
    }
}
