import Foundation
@testable import HostCommand
import Testing

/// The advice after an API that cannot be reached names the fixtures of the
/// source that failed, and only fixtures that exist: through the built
/// `host`, run from this checkout, as a user meets it (issue 37).
/// `scripts/check-install.sh` checks the installed host, which has none.
@Suite("Offline advice names the failed source's own fixtures")
struct OfflineAdviceTests {
    static let checkout = FixturePlugins.repositoryRoot.standardized.path
    /// Port 1 on loopback: nothing listens, so the connection is refused at once.
    static let refused = "http://127.0.0.1:1"
    static let unreachable = "check the address and your network connection"

    @Test("A Coinbase source's BTC line names the checkout's Coinbase folder, which holds BTC-USD, and not Bitstamp's")
    func coinbaseLineNamesCoinbaseFixtures() async throws {
        // One source: the bundled Bitstamp plugin, a second source of BTC, is never asked.
        let output = try await CommandRunner.host(["fetch", "BTC", "--api-base-url", Self.refused], environment: ["HOST_RANKS": "BitstampPlugin:0"])

        #expect(output.status == 1)
        #expect(output.stderrLines == [
            "host: error: BTC: Could not reach \(Self.refused)/v2/prices/BTC-USD/spot: connection refused; \(Self.unreachable); "
                + "with no network, fetch from the offline fixtures instead: --api-base-url file://\(Self.checkout)/Fixtures/coinbase"
        ])
    }

    @Test("A Bitstamp line names Bitstamp's fixtures for BitstampPlugin, not Coinbase's")
    func bitstampLineNamesBitstampFixtures() async throws {
        let output = try await CommandRunner.host(["fetch", "BTC", "--source", "BitstampPlugin", "--api-base-url", "BitstampPlugin=\(Self.refused)"])

        #expect(output.status == 1)
        #expect(output.stderrLines.count == 1, "\(output.stderr)")
        #expect(output.stderr.hasSuffix(
            "; \(Self.unreachable); with no network, fetch from the offline fixtures instead: --api-base-url BitstampPlugin=file://\(Self.checkout)/Fixtures/bitstamp\n"),
            "\(output.stderr)")
        #expect(!output.stderr.contains("coinbase") && !output.stderr.contains("spot.json"), "\(output.stderr)")
    }

    @Test("A request no fixture answers names the file a folder of one's own needs, and no fixture folder")
    func noFixtureNamesTheFileToWrite() async throws {
        // The checkout's fixtures are in USD only.
        let output = try await CommandRunner.host(
            ["fetch", "BTC", "--currency", "EUR", "--all-sources", "--api-base-url", Self.refused])

        #expect(output.status == 1)
        let lines = output.stderrLines
        #expect(lines.count == 2, "\(output.stderr)")
        #expect(lines.contains {
            $0.hasPrefix("host: error: BTC: BitcoinPlugin failed: ")
                && $0.hasSuffix("; \(Self.unreachable); with no network, give --api-base-url file:///DIR, a folder that holds DIR/v2/prices/BTC-EUR/spot.json")
        }, "\(output.stderr)")
        #expect(lines.contains {
            $0.hasPrefix("host: error: BTC: BitstampPlugin failed: ")
                && $0.hasSuffix("; \(Self.unreachable); with no network, give --api-base-url file:///DIR, a folder that holds DIR/api/v2/ticker/btceur.json")
        }, "\(output.stderr)")
        #expect(!output.stderr.contains("Fixtures/"), "\(output.stderr)")
    }

    @Test("A missing file:// fixture for Bitstamp reads as Bitstamp's 404, not Coinbase's")
    func missingBitstampFixtureIsBitstamps() async throws {
        let empty = try TemporaryDirectory.make().path

        let output = try await CommandRunner.host(["fetch", "BTC", "--source", "BitstampPlugin", "--api-base-url", "BitstampPlugin=file://\(empty)"])

        #expect(output.status == 1)
        #expect(output.stderrLines == [
            "host: error: BTC: Bitstamp answered HTTP 404 for BTC/USD: no fixture file at \(empty)/api/v2/ticker/btcusd or \(empty)/api/v2/ticker/btcusd.json (not_found)"
        ])
    }

    @Test("A path that is not plain names gets no fixture lookup: a plugin cannot probe files outside the folders", arguments: [
        "http://127.0.0.1:1/../../etc/passwd", "http://127.0.0.1:1/v2/./prices", "http://127.0.0.1:1/v2/%2e%2e/x", "http://127.0.0.1:1/a%2Fb",
        "http://127.0.0.1:1/",
    ])
    func onlyPlainPaths(url: String) throws {
        let parsed = try #require(URL(string: url))

        #expect(OfflineFixtures.relativePath(of: parsed) == nil)
        #expect(OfflineFixtures(checkout: Self.checkout).advice(for: parsed) == "with no network, give --api-base-url file:///DIR, a folder laid out like the API")
    }

    @Test("A plain path is the file a file:// base reads")
    func plainPath() throws {
        let url = try #require(URL(string: "https://www.bitstamp.net/api/v2/ticker/btcusd/"))

        #expect(OfflineFixtures.relativePath(of: url) == "api/v2/ticker/btcusd")
    }
}
