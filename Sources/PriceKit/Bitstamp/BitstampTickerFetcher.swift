#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fetches the last trade price from Bitstamp's public ticker, which needs
/// no key and sends every amount as a string.
///
/// It sends `GET {apiBaseURL}/api/v2/ticker/{base}{currency}/` (both codes
/// lower-cased, e.g. `…/ticker/btcusd/`) through the ``Networking`` service
/// it was given, and reads `last` as the exact decimal text Bitstamp sent.
///
/// ```swift
/// let fetcher = BitstampTickerFetcher(
///     base: "BTC",
///     displayName: "Bitcoin",
///     networking: networking,
///     apiBaseURL: URL(string: "https://www.bitstamp.net")!
/// )
/// let price = try await fetcher.price(in: "USD")   // GET …/api/v2/ticker/btcusd/
/// print(price)                                    // 1 BTC = 60192 USD
/// ```
///
/// Every failure is a ``PriceFetchError`` whose description is one line,
/// whatever shape of error body Bitstamp sent, e.g.
/// `Bitstamp answered HTTP 404 for BTC/XYZ: Not Found`.
public struct BitstampTickerFetcher: PriceFetcher {
    /// The asset this fetcher prices, upper-cased, e.g. `"BTC"`.
    public let symbol: String
    /// A human-readable name, e.g. `"Bitcoin"`.
    public let displayName: String
    /// Where the API lives, e.g. `https://www.bitstamp.net`, or a `file://`
    /// folder laid out like it for offline use.
    public let apiBaseURL: URL
    private let networking: any Networking

    /// Creates a fetcher for one asset.
    ///
    /// - Parameters:
    ///   - base: The asset to price, e.g. `"BTC"`; it is upper-cased.
    ///   - displayName: A human-readable name; defaults to the upper-cased `base`.
    ///   - networking: Performs the HTTP GET.
    ///   - apiBaseURL: The API's root, without `/api/v2`.
    public init(base: String, displayName: String? = nil, networking: any Networking, apiBaseURL: URL) {
        let symbol = base.uppercased()
        self.symbol = symbol
        self.displayName = displayName ?? symbol
        self.networking = networking
        self.apiBaseURL = apiBaseURL
    }

    /// The URL of the ticker of ``symbol`` in `currency`.
    ///
    /// - Parameter currency: The quote currency, e.g. `"USD"`; it is lower-cased.
    /// - Returns: `{apiBaseURL}/api/v2/ticker/{symbol}{currency}/`, lower case.
    /// - Throws: ``PriceFetchError/Code/invalidRequest`` when ``symbol`` or
    ///   `currency` is not 2 to 10 ASCII letters or digits.
    public func tickerURL(currency: String) throws(PriceFetchError) -> URL {
        let codes = try codes(currency: currency)
        return apiBaseURL.appending(path: "api/v2/ticker/\(codes.base.lowercased())\(codes.currency.lowercased())/")
    }

    /// Fetches the price of the last trade of ``symbol``.
    ///
    /// - Parameters:
    ///   - currency: The quote currency, e.g. `"USD"`; case does not matter.
    ///   - timeout: Passed to the networking service; `nil` uses its default.
    /// - Returns: The price as Bitstamp sent it, amount text unchanged.
    /// - Throws: ``PriceFetchError``: ``PriceFetchError/Code/invalidRequest``
    ///   for a bad code, ``PriceFetchError/Code/unreachable`` when no response
    ///   arrived, ``PriceFetchError/Code/httpStatus`` for a non-2xx answer
    ///   (with Bitstamp's own message), and
    ///   ``PriceFetchError/Code/undecodableResponse`` for a body that is not
    ///   a ticker of the requested pair.
    public func price(in currency: String, timeout: Duration?) async throws(PriceFetchError) -> Price {
        let url = try tickerURL(currency: currency)
        let codes = try codes(currency: currency)
        let pair = "\(codes.base)/\(codes.currency)"
        let response: HTTPResponse
        do {
            response = try await networking.get(url, timeout: timeout)
        } catch {
            throw .unreachable(url: url.absoluteString, reason: error.reason)
        }
        guard response.isSuccess else {
            throw .httpStatus(source: "Bitstamp", pair: pair, status: response.status, message: Self.errorMessage(in: response.body))
        }
        let ticker: BitstampTickerResponse
        do {
            ticker = try JSONDecoder().decode(BitstampTickerResponse.self, from: Data(response.body))
        } catch let error as DecodingError {
            throw .undecodable(source: "Bitstamp", pair: pair, detail: Self.detail(for: error, body: response.body))
        } catch {
            throw .undecodable(source: "Bitstamp", pair: pair, detail: "\(error)")
        }
        // Bitstamp has answered an unknown pair with another pair's ticker before: believe the pair it names.
        if let quoted = ticker.pair, quoted.uppercased() != pair {
            throw .undecodable(source: "Bitstamp", pair: pair, detail: "it quotes \(quoted) instead")
        }
        return Price(base: codes.base, currency: codes.currency, amount: ticker.last)
    }

    private func codes(currency: String) throws(PriceFetchError) -> (base: String, currency: String) {
        guard AssetCode.isValid(symbol) else {
            throw .invalidCode(role: "base asset", value: symbol, example: "BTC")
        }
        guard AssetCode.isValid(currency) else {
            throw .invalidCode(role: "quote currency", value: currency, example: "USD")
        }
        return (symbol, currency.uppercased())
    }

    /// Bitstamp's own error message, or the start of whatever else came back.
    private static func errorMessage(in body: [UInt8]) -> String {
        if let summary = (try? JSONDecoder().decode(BitstampErrorResponse.self, from: Data(body)))?.summary {
            return summary
        }
        return body.isEmpty ? "the response body is empty" : "the response body was \(ResponseExcerpt.of(body))"
    }

    private static func detail(for error: DecodingError, body: [UInt8]) -> String {
        if body.isEmpty { return "the body is empty" }
        if let summary = (try? JSONDecoder().decode(BitstampErrorResponse.self, from: Data(body)))?.summary {
            return "it holds an error instead of a ticker: \(summary)"
        }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return "the body is not valid JSON: \(ResponseExcerpt.of(body))"
        }
        return error.sentence
    }
}
