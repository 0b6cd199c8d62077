import Foundation
import Testing

/// The one cap on what a plugin's `http_get` may receive, 1 MiB, over HTTP
/// and from a `file://` base, through `host` as a user runs it: a body of
/// exactly the cap arrives, one byte more fails.
@Suite("The 1 MiB cap on bodies a plugin receives, end to end", .timeLimit(.minutes(10)))
struct BodyCapEndToEndTests {
    static let cap = 1 << 20

    /// A Coinbase answer for ETH, padded with spaces (JSON allows them) to `size` bytes.
    static func body(size: Int) -> String {
        let answer = #"{"data":{"base":"ETH","currency":"USD","amount":"3000.5"}}"#
        return answer + String(repeating: " ", count: size - answer.utf8.count)
    }

    /// The error line `fetch ETH` prints for a body over the cap from `base`.
    static func tooLarge(_ base: String) -> String {
        "host: error: ETH: Could not reach \(base)/v2/prices/ETH-USD/spot: response body larger than 1048576 bytes"
    }

    /// Default placement (the bundled plugin in-process), and in a worker.
    static let modes: [[String]] = [[], ["--isolate"]]

    /// The servers here are shaped like Coinbase: the bundled Bitstamp
    /// plugin, a second source of ETH, is ranked 0 so that only Coinbase's
    /// plugin is asked and the one error line is its own.
    static let coinbaseOnly = HostEndToEndTests.coinbaseOnly

    @Test("An HTTP body of exactly 1 MiB arrives; one byte more fails that fetch", arguments: modes)
    func http(flags: [String]) async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-USD/spot": .sequence([
                .respond(status: 200, body: Self.body(size: Self.cap)), .respond(status: 200, body: Self.body(size: Self.cap + 1)),
            ])
        ])
        defer { Task { await server.stop() } }

        let fits = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", server.baseURL] + flags, environment: Self.coinbaseOnly)
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(fits.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nETH     USD       3000.5  EthereumPlugin\n")

        let over = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", server.baseURL] + flags, environment: Self.coinbaseOnly)
        #expect(over.status == 1)
        #expect(over.stdout == "")
        #expect(over.stderrLines == [Self.tooLarge(server.baseURL)])
    }

    @Test("A file:// body of exactly 1 MiB arrives; one byte more fails that fetch", arguments: modes)
    func file(flags: [String]) async throws {
        let base = try TemporaryDirectory.make()
        let prices = base.appending(path: "v2/prices/ETH-USD")
        try FileManager.default.createDirectory(at: prices, withIntermediateDirectories: true)
        func fetch(size: Int) async throws -> CommandRunner.Output {
            try Data(Self.body(size: size).utf8).write(to: prices.appending(path: "spot"))
            return try await CommandRunner.host(["fetch", "ETH", "--api-base-url", base.absoluteString] + flags, environment: Self.coinbaseOnly)
        }

        let fits = try await fetch(size: Self.cap)
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(fits.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nETH     USD       3000.5  EthereumPlugin\n")

        let over = try await fetch(size: Self.cap + 1)
        #expect(over.status == 1)
        #expect(over.stdout == "")
        #expect(over.stderrLines == [Self.tooLarge(base.absoluteString.replacing(/\/$/, with: ""))])
    }
}
