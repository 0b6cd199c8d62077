#if DEBUG || FUZZING
import FoundationEssentials
import PluginBoundary
import PriceKit
@testable import PluginHost

/// The bundled plugins' price decoding: `CoinbaseSpotFetcher` reading a
/// server's answer, as BitcoinPlugin and EthereumPlugin run it.
///
/// Input: a status selector byte, then the response body.
let coinbasePriceTarget = FuzzTarget("coinbase-price", "CoinbaseSpotFetcher reading a response (JSON, DecimalAmount); input: status byte, then the body") { input throws(PropertyViolation) in
    try checkPriceDecoding(&input) { networking in
        CoinbaseSpotFetcher(base: "btc", displayName: "Bitcoin", networking: networking, apiBaseURL: URL(filePath: "/srv/coinbase"))
    }
}

/// The second bundled source's price decoding: `BitstampTickerFetcher`
/// reading a server's answer, as BitstampPlugin runs it.
///
/// Input: a status selector byte, then the response body.
let bitstampPriceTarget = FuzzTarget("bitstamp-price", "BitstampTickerFetcher reading a response (JSON, DecimalAmount); input: status byte, then the body") { input throws(PropertyViolation) in
    let body = try checkPriceDecoding(&input) { networking in
        BitstampTickerFetcher(base: "btc", displayName: "Bitcoin", networking: networking, apiBaseURL: URL(filePath: "/srv/bitstamp"))
    }
    // Bitstamp has answered an unknown pair with another pair's ticker: a
    // price is never taken from a ticker that names another pair.
    guard let body, let named = try? JSONDecoder().decode(NamedPair.self, from: Data(body)).pair else { return }
    try expect(named.uppercased() == "BTC/USD", "a ticker that names another pair is not a price", named.debugDescription)
}

/// The `pair` a ticker names, read on its own.
private struct NamedPair: Decodable {
    let pair: String?
}

/// Runs one fetch of BTC in USD over networking that answers with the
/// input's status and body, and checks what came back.
/// - Returns: The body, when the fetch gave a price; nil for an error.
@discardableResult
private func checkPriceDecoding(
    _ input: inout FuzzInput, _ makeFetcher: (any Networking) -> any PriceFetcher
) throws(PropertyViolation) -> [UInt8]? {
    let statuses = [200, 200, 200, 201, 404, 400, 500, 503, 429, 301]
    let status = statuses[Int(input.byte()) % statuses.count]
    let body = Array(input.remaining())
    let fetcher = makeFetcher(CannedNetworking(response: HTTPResponse(status: status, body: body)))
    guard let result = InlineTaskExecutor.run({ () async -> Result<Price, any Error> in
        do {
            return .success(try await fetcher.price(in: "usd", timeout: nil))
        } catch {
            return .failure(error)
        }
    }) else {
        throw PropertyViolation(property: "a fetch over networking that answers at once finishes at once", detail: "status \(status)")
    }
    switch result {
    case .failure(let error):
        try expect(error is PriceFetchError, "every failure is a PriceFetchError", "\(type(of: error)): \(error)")
        let line = "\(error)"
        try expect(line.unicodeScalars.allSatisfy(isOneLine), "a fetch error is one line", line.debugDescription)
        return nil
    case .success(let price):
        try expect((200..<300).contains(status), "only a 2xx response is a price", "status \(status) gave \(price)")
        try expect(matchesDecimalGrammar(price.amount.text, digitCap: nil), "a price's amount is -?[0-9]+(.[0-9]+)?", price.amount.text.debugDescription)
        try expect(price.base.uppercased() == "BTC" && price.currency.uppercased() == "USD", "a price is for the pair asked", "\(price)")
        // The SDK hands the host exactly these texts; within the digit cap,
        // the host takes them.
        guard decimalDigitCount(price.amount.text) <= PluginOutputRules.Limit.amountDigits else { return body }
        let request = PluginOutputRules.Request(symbol: "BTC", currency: "USD", plugin: PluginIdentity(name: "BitcoinPlugin", version: "1", path: "/fuzz", voucher: .bundled))
        let checked = PluginOutputRules.quote(PluginOutputRules.Answer(base: price.base, currency: price.currency, amount: price.amount.text), for: request)
        if case .failure(let refusal) = checked {
            throw PropertyViolation(property: "the host accepts a price the plugin decoded", detail: "\(price): \(refusal)")
        }
        return body
    }
}

/// What a one-line message may not hold: a control character or a line
/// or paragraph separator.
private func isOneLine(_ scalar: Unicode.Scalar) -> Bool {
    ![.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
}

/// Networking that answers every request with one response, at once.
private struct CannedNetworking: Networking {
    let response: HTTPResponse

    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
        response
    }
}
#endif
