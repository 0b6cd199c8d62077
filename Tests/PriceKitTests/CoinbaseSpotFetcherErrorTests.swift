import Foundation
import PriceKit
import Testing

@Suite struct CoinbaseSpotFetcherErrorTests {
    private func fetchError(
        _ networking: CannedNetworking,
        base: String = "ETH",
        currency: String = "USD"
    ) async -> PriceFetchError? {
        let fetcher = CoinbaseSpotFetcher(base: base, networking: networking, apiBaseURL: .coinbase)
        return await #expect(throws: PriceFetchError.self) { try await fetcher.price(in: currency) }
    }

    @Test func anHTTPErrorCarriesTheStatusAndCoinbasesOwnMessage() async {
        let networking = CannedNetworking.answering(status: 404, #"{"errors":[{"id":"not_found","message":"Invalid currency"}]}"#)

        let error = await fetchError(networking, base: "BTC", currency: "XYZ")

        #expect(error?.code == .httpStatus)
        #expect(error?.httpStatus == 404)
        #expect(error?.description == "Coinbase answered HTTP 404 for BTC-XYZ: Invalid currency (not_found)")
    }

    @Test func everyAPIErrorIsListed() async {
        let networking = CannedNetworking.answering(status: 400, """
            {"errors":[{"id":"invalid_request","message":"Bad base"},{"message":"Bad currency"},{"id":"rate_limited"}]}
            """)

        let error = await fetchError(networking)

        #expect(error?.description == "Coinbase answered HTTP 400 for ETH-USD: Bad base (invalid_request); Bad currency; rate_limited")
    }

    @Test func anHTTPErrorWithoutAnAPIMessageQuotesTheBody() async {
        let networking = CannedNetworking.answering(status: 502, "<html>\n<body>Bad Gateway</body>\n</html>")

        let error = await fetchError(networking)

        #expect(error?.httpStatus == 502)
        #expect(error?.description == #"Coinbase answered HTTP 502 for ETH-USD: the response body was "<html> <body>Bad Gateway</body> </html>""#)
    }

    @Test func anHTTPErrorWithAnEmptyBodySaysSo() async {
        let error = await fetchError(CannedNetworking(.success(HTTPResponse(status: 503))))

        #expect(error?.description == "Coinbase answered HTTP 503 for ETH-USD: the response body is empty")
    }

    @Test func aMultiLineAPIMessageStaysOnOneLine() async {
        let networking = CannedNetworking.answering(status: 500, #"{"errors":[{"id":"internal","message":"Something\nbroke\r\nbadly"}]}"#)

        let error = await fetchError(networking)

        #expect(error?.description == "Coinbase answered HTTP 500 for ETH-USD: Something broke  badly (internal)")
    }

    @Test func aTransportFailureNamesTheURLAndKeepsTheHostsReason() async {
        let error = await fetchError(CannedNetworking.failing("timed out after 5 s"))

        #expect(error?.code == .unreachable)
        #expect(error?.httpStatus == nil)
        #expect(error?.description == "Could not reach https://api.coinbase.com/v2/prices/ETH-USD/spot: timed out after 5 s")
    }

    @Test(arguments: [
        ("{", #"the body is not valid JSON: "{""#),
        ("<html>oops</html>", #"the body is not valid JSON: "<html>oops</html>""#),
        ("", "the body is empty"),
        ("[]", #""(top level)" is not a JSON object"#),
        (#"{"data":[]}"#, #""data" is not a JSON object"#),
        (#"{"data":{"base":"ETH","currency":"USD","amount":"12,5"}}"#, #""data.amount" is "12,5", which is not a decimal number"#),
        (#"{"data":{"base":"ETH","currency":"USD","amount":null}}"#, #""data.amount" is null"#),
        (#"{"data":{"base":"ETH","currency":"USD","amount":true}}"#, #""data.amount" must be a decimal string"#),
    ])
    func aMalformedBodyIsAnUndecodableResponse(body: String, detail: String) async {
        let error = await fetchError(CannedNetworking.answering(body))

        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Coinbase response for ETH-USD: \(detail)")
    }

    @Test(arguments: [
        (#"{"warnings":[]}"#, "data"),
        (#"{"data":{"currency":"USD","amount":"1"}}"#, "data.base"),
        (#"{"data":{"base":"ETH","amount":"1"}}"#, "data.currency"),
        (#"{"data":{"base":"ETH","currency":"USD"}}"#, "data.amount"),
    ])
    func aMissingFieldIsNamed(body: String, path: String) async {
        let error = await fetchError(CannedNetworking.answering(body))

        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Coinbase response for ETH-USD: the key \"\(path)\" is missing")
    }

    /// Decision: an amount sent as a JSON number is rejected, not converted.
    /// JSON decoders read numbers through binary floating point or
    /// normalize them, so "100000.10" could come out as "100000.1".
    @Test(arguments: ["100000.10", "15840", "2718.281828459045235360287"])
    func anAmountSentAsAJSONNumberIsRejected(number: String) async {
        let error = await fetchError(CannedNetworking.answering(#"{"data":{"base":"ETH","currency":"USD","amount":\#(number)}}"#))

        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Coinbase response for ETH-USD: \"data.amount\" is a JSON number, but an exact amount must be sent as a decimal string")
    }

    /// An answer for another base, another currency, or both, is never
    /// passed off as the price that was asked for.
    @Test(arguments: [("BTC", "USD"), ("ETH", "EUR"), ("BTC", "EUR"), ("USD", "ETH")])
    func aQuoteForAnotherPairIsRejected(base: String, currency: String) async {
        let error = await fetchError(CannedNetworking.answering(#"{"data":{"base":"\#(base)","currency":"\#(currency)","amount":"1"}}"#))

        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Coinbase response for ETH-USD: it quotes \(base)-\(currency) instead")
    }

    @Test func aQuoteForTheRequestedPairInLowerCaseIsAccepted() async throws {
        let networking = CannedNetworking.answering(#"{"data":{"base":"eth","currency":"usd","amount":"1"}}"#)
        let fetcher = CoinbaseSpotFetcher(base: "ETH", networking: networking, apiBaseURL: .coinbase)

        let price = try await fetcher.price(in: "USD")

        #expect(price.amount.text == "1")
    }

    @Test func anErrorBodyWithASuccessStatusIsUndecodableButShowsTheMessage() async {
        let error = await fetchError(CannedNetworking.answering(status: 200, #"{"errors":[{"id":"not_found","message":"Invalid base currency"}]}"#))

        #expect(error?.code == .undecodableResponse)
        #expect(error?.description == "Could not decode the Coinbase response for ETH-USD: it holds errors instead of a price: Invalid base currency (not_found)")
    }

    @Test(arguments: ["", "U", "US D", "USD/../x", "ÜSD", "VERYLONGCODE"])
    func anInvalidCurrencyIsRefusedWithoutARequest(currency: String) async {
        let networking = CannedNetworking.answering("{}")

        let error = await fetchError(networking, currency: currency)

        #expect(error?.code == .invalidRequest)
        #expect(error?.description == "Invalid quote currency \"\(currency)\": use 2 to 10 ASCII letters or digits, e.g. \"USD\"")
        #expect(networking.requests.isEmpty)
    }

    @Test func anInvalidBaseIsRefusedWithoutARequest() async {
        let networking = CannedNetworking.answering("{}")

        let error = await fetchError(networking, base: "E/TH")

        #expect(error?.description == "Invalid base asset \"E/TH\": use 2 to 10 ASCII letters or digits, e.g. \"ETH\"")
        #expect(networking.requests.isEmpty)
    }

    @Test func everyCodeHasAStableName() {
        let codes: [PriceFetchError.Code] = [.invalidRequest, .httpStatus, .undecodableResponse, .unreachable]
        #expect(codes.map(\.description) == ["invalidRequest", "httpStatus", "undecodableResponse", "unreachable"])
    }
}
