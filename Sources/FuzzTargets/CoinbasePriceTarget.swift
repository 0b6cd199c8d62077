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
    let statuses = [200, 200, 200, 201, 404, 400, 500, 503, 429, 301]
    let status = statuses[Int(input.byte()) % statuses.count]
    let networking = CannedNetworking(response: HTTPResponse(status: status, body: Array(input.remaining())))
    let fetcher = CoinbaseSpotFetcher(base: "btc", displayName: "Bitcoin", networking: networking, apiBaseURL: URL(filePath: "/srv/coinbase"))
    guard let result = InlineTaskExecutor.run({ () async -> Result<Price, PriceFetchError> in
        do throws(PriceFetchError) {
            return .success(try await fetcher.price(in: "usd", timeout: nil))
        } catch {
            return .failure(error)
        }
    }) else {
        throw PropertyViolation(property: "a fetch over networking that answers at once finishes at once", detail: "status \(status)")
    }
    switch result {
    case .failure(let error):
        let line = error.description
        try expect(line.unicodeScalars.allSatisfy(isOneLine), "a fetch error is one line", line.debugDescription)
    case .success(let price):
        try expect((200..<300).contains(status), "only a 2xx response is a price", "status \(status) gave \(price)")
        try expect(matchesDecimalGrammar(price.amount.text, digitCap: nil), "a price's amount is -?[0-9]+(.[0-9]+)?", price.amount.text.debugDescription)
        try expect(price.base.uppercased() == "BTC" && price.currency.uppercased() == "USD", "a price is for the pair asked", "\(price)")
        // The SDK hands the host exactly these texts; within the digit cap,
        // the host takes them.
        guard decimalDigitCount(price.amount.text) <= PluginOutputRules.Limit.amountDigits else { return }
        let request = PluginOutputRules.Request(symbol: "BTC", currency: "USD", plugin: PluginIdentity(name: "BitcoinPlugin", version: "1", path: "/fuzz"))
        let checked = PluginOutputRules.quote(PluginOutputRules.Answer(base: price.base, currency: price.currency, amount: price.amount.text), for: request)
        if case .failure(let refusal) = checked {
            throw PropertyViolation(property: "the host accepts a price the plugin decoded", detail: "\(price): \(refusal)")
        }
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
