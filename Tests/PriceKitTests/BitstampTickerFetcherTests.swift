import Foundation
import PriceKit
import Testing

/// Bitstamp's ticker, read from the shipped fixtures and from canned answers
/// in every error shape its API uses.
@Suite struct BitstampTickerFetcherTests {
    private func fetchError(_ networking: CannedNetworking, base: String = "BTC", currency: String = "USD") async -> PriceFetchError? {
        let fetcher = BitstampTickerFetcher(base: base, networking: networking, apiBaseURL: .bitstamp)
        return await #expect(throws: PriceFetchError.self) { try await fetcher.price(in: currency) }
    }

    @Test("The shipped fixtures answer BTC and ETH, amounts exact", arguments: [
        ("BTC", "100150.25"), ("ETH", "2718.281828459045235360291"),
    ])
    func fixtures(base: String, amount: String) async throws {
        let fetcher = BitstampTickerFetcher(base: base, networking: FixtureNetworking(), apiBaseURL: FixtureNetworking.bitstampRoot)
        let price = try await fetcher.price(in: "usd")
        #expect(price == Price(base: base, currency: "USD", amount: try DecimalAmount(amount)))
    }

    @Test("A pair with no fixture is a 404 in one line, as the host's file:// reads answer it")
    func missingFixture() async throws {
        let fetcher = BitstampTickerFetcher(base: "BTC", networking: FixtureNetworking(), apiBaseURL: FixtureNetworking.bitstampRoot)
        let error = await #expect(throws: PriceFetchError.self) { try await fetcher.price(in: "EUR") }
        #expect(error?.description == "Bitstamp answered HTTP 404 for BTC/EUR: the response body is empty")
    }

    @Test("One GET of the lower-case pair's ticker, with a trailing slash, and the timeout asked for")
    func request() async throws {
        let networking = CannedNetworking.answering(#"{"last": "60192", "pair": "BTC/USD"}"#)
        let fetcher = BitstampTickerFetcher(base: "btc", displayName: "Bitcoin", networking: networking, apiBaseURL: .bitstamp)
        let price = try await fetcher.price(in: "USD", timeout: .seconds(5))
        #expect(price.description == "1 BTC = 60192 USD")
        #expect(fetcher.symbol == "BTC")
        #expect(networking.requests == [.init(url: URL(string: "https://www.bitstamp.net/api/v2/ticker/btcusd/")!, timeout: .seconds(5))])
    }

    @Test("An answer without a pair, as older ones are, is read by its last price")
    func noPair() async throws {
        let networking = CannedNetworking.answering(#"{"high": "9300.00000000", "last": "9240.58", "timestamp": "1593652929", "open": 9230.97}"#)
        let price = try await BitstampTickerFetcher(base: "BTC", networking: networking, apiBaseURL: .bitstamp).price(in: "USD")
        #expect(price.amount.text == "9240.58")
    }

    @Test("A ticker of another pair is refused, not taken for the one asked")
    func otherPair() async {
        let error = await fetchError(CannedNetworking.answering(#"{"last": "60192", "pair": "BTC/USD"}"#), currency: "CZK")
        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Bitstamp response for BTC/CZK: it quotes BTC/USD instead")
    }

    @Test("Every error shape Bitstamp sends becomes one line", arguments: [
        (404, #"{"status": "error", "reason": "Not Found", "code": "API0001"}"#, "Not Found (API0001)"),
        (400, #"{"status": "error", "reason": {"__all__": ["Minimum order size is 5.0 EUR."], "amount": ["Ensure this\nvalue is positive."]}}"#,
         "Minimum order size is 5.0 EUR.; amount: Ensure this value is positive."),
        (403, #"{"error": "No permission found"}"#, "No permission found"),
        (429, #"{"status": "error"}"#, "error"),
        (404, #"{"errors":[{"id":"not_found","message":"no fixture file at /f/btcxyz or /f/btcxyz.json"}]}"#,
         "no fixture file at /f/btcxyz or /f/btcxyz.json (not_found)"),
        (502, "<html>\n<head><title>502 Bad Gateway</title></head>\n</html>", #"the response body was "<html> <head><title>502 Bad Gateway</title></head> </html>""#),
        (503, "", "the response body is empty"),
    ])
    func errorShapes(status: Int, body: String, message: String) async {
        let error = await fetchError(CannedNetworking.answering(status: status, body))
        #expect(error?.code == .httpStatus)
        #expect(error?.httpStatus == status)
        #expect(error?.description == "Bitstamp answered HTTP \(status) for BTC/USD: \(message)")
    }

    @Test("A body that is not a ticker is an undecodable response, said in one line", arguments: [
        ("", "the body is empty"),
        ("{", #"the body is not valid JSON: "{""#),
        (#"{"status": "error", "reason": "Invalid currency pair"}"#, "it holds an error instead of a ticker: Invalid currency pair"),
        (#"{"high": "1"}"#, #"the key "last" is missing"#),
        (#"{"last": 60192.5}"#, #""last" is a JSON number, but an exact amount must be sent as a decimal string"#),
        (#"{"last": "6e4"}"#, #""last" is "6e4", which is not a decimal number"#),
        (#"{"last": null}"#, #""last" is null"#),
    ])
    func undecodable(body: String, detail: String) async {
        let error = await fetchError(CannedNetworking.answering(body))
        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Bitstamp response for BTC/USD: \(detail)")
    }

    @Test("No request goes out for a code that cannot be a pair")
    func invalidCode() async {
        let networking = CannedNetworking.answering("{}")
        let error = await fetchError(networking, currency: "U/SD")
        #expect(error?.description == #"Invalid quote currency "U/SD": use 2 to 10 ASCII letters or digits, e.g. "USD""#)
        #expect(networking.requests.isEmpty)
    }

    @Test("A transport failure names the URL and keeps the host's reason")
    func unreachable() async {
        let error = await fetchError(CannedNetworking.failing("connection refused"), base: "ETH")
        #expect(error?.description == "Could not reach https://www.bitstamp.net/api/v2/ticker/ethusd/: connection refused")
    }
}
