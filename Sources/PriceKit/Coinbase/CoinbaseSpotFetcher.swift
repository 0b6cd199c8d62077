#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fetches spot prices from the Coinbase v2 API.
///
/// It sends `GET {apiBaseURL}/v2/prices/{BASE}-{CURRENCY}/spot` through the
/// ``Networking`` service it was given, with both codes upper-cased, and
/// reads the amount as the exact decimal text Coinbase sent.
///
/// ```swift
/// let fetcher = CoinbaseSpotFetcher(
///     base: "ETH",
///     displayName: "Ethereum",
///     networking: networking,
///     apiBaseURL: URL(string: "https://api.coinbase.com")!
/// )
/// let price = try await fetcher.price(in: "usd")   // GET …/v2/prices/ETH-USD/spot
/// print(price)                                    // 1 ETH = 2718.28 USD
/// ```
///
/// Every failure is a ``PriceFetchError`` whose description is one line,
/// e.g. `Coinbase answered HTTP 404 for ETH-XYZ: Invalid currency (not_found)`.
public struct CoinbaseSpotFetcher: PriceFetcher {
    /// The asset this fetcher prices, upper-cased, e.g. `"ETH"`.
    public let symbol: String
    /// A human-readable name, e.g. `"Ethereum"`.
    public let displayName: String
    /// Where the API lives, e.g. `https://api.coinbase.com`, or a
    /// `file://` folder laid out like the API for offline use.
    public let apiBaseURL: URL
    private let networking: any Networking

    /// Creates a fetcher for one asset.
    ///
    /// - Parameters:
    ///   - base: The asset to price, e.g. `"ETH"`; it is upper-cased.
    ///   - displayName: A human-readable name; defaults to the upper-cased `base`.
    ///   - networking: Performs the HTTP GET.
    ///   - apiBaseURL: The API's root, without `/v2`.
    public init(base: String, displayName: String? = nil, networking: any Networking, apiBaseURL: URL) {
        let symbol = base.uppercased()
        self.symbol = symbol
        self.displayName = displayName ?? symbol
        self.networking = networking
        self.apiBaseURL = apiBaseURL
    }

    /// The URL of the spot price of ``symbol`` in `currency`.
    ///
    /// - Parameter currency: The quote currency, e.g. `"usd"`; it is upper-cased.
    /// - Returns: `{apiBaseURL}/v2/prices/{SYMBOL}-{CURRENCY}/spot`.
    /// - Throws: ``PriceFetchError/Code/invalidRequest`` when ``symbol`` or
    ///   `currency` is not 2 to 10 ASCII letters or digits.
    public func spotURL(currency: String) throws(PriceFetchError) -> URL {
        apiBaseURL.appending(path: "v2/prices/\(try pair(currency: currency))/spot")
    }

    /// Fetches the current spot price of ``symbol``.
    ///
    /// - Parameters:
    ///   - currency: The quote currency, e.g. `"USD"`; case does not matter.
    ///   - timeout: Passed to the networking service; `nil` uses its default.
    /// - Returns: The price as Coinbase sent it, amount text unchanged, for
    ///   the pair asked (upper-cased) whatever case Coinbase wrote it in.
    /// - Throws: ``PriceFetchError``: ``PriceFetchError/Code/invalidRequest``
    ///   for a bad code, ``PriceFetchError/Code/unreachable`` when no response
    ///   arrived, ``PriceFetchError/Code/httpStatus`` for a non-2xx answer
    ///   (with Coinbase's own message), and
    ///   ``PriceFetchError/Code/undecodableResponse`` for a body that is not
    ///   a spot price for the requested pair.
    public func price(in currency: String, timeout: Duration?) async throws(PriceFetchError) -> Price {
        let pair = try pair(currency: currency)
        let url = apiBaseURL.appending(path: "v2/prices/\(pair)/spot")
        let response: HTTPResponse
        do {
            response = try await networking.get(url, timeout: timeout)
        } catch {
            throw .unreachable(url: url.absoluteString, reason: error.reason)
        }
        guard response.isSuccess else {
            throw .httpStatus(source: "Coinbase", pair: pair, status: response.status, message: Self.errorMessage(in: response.body))
        }
        let quote: CoinbaseSpotResponse.Quote
        do {
            quote = try JSONDecoder().decode(CoinbaseSpotResponse.self, from: Data(response.body)).data
        } catch let error as DecodingError {
            throw .undecodable(source: "Coinbase", pair: pair, detail: Self.detail(for: error, body: response.body))
        } catch {
            throw .undecodable(source: "Coinbase", pair: pair, detail: "\(error)")
        }
        let requested = pair.split(separator: "-").map(String.init)
        guard [quote.base.uppercased(), quote.currency.uppercased()] == requested else {
            throw .undecodable(source: "Coinbase", pair: pair, detail: "it quotes \(quote.base)-\(quote.currency) instead")
        }
        // The codes as asked, not as answered: the host takes only a quote
        // for exactly the symbol and currency it asked for.
        return Price(base: requested[0], currency: requested[1], amount: quote.amount)
    }

    private func pair(currency: String) throws(PriceFetchError) -> String {
        guard AssetCode.isValid(symbol) else {
            throw .invalidCode(role: "base asset", value: symbol, example: "ETH")
        }
        guard AssetCode.isValid(currency) else {
            throw .invalidCode(role: "quote currency", value: currency, example: "USD")
        }
        return "\(symbol)-\(currency.uppercased())"
    }

    /// Coinbase's own error message, or the start of whatever else came back.
    private static func errorMessage(in body: [UInt8]) -> String {
        if let errors = try? JSONDecoder().decode(CoinbaseErrorResponse.self, from: Data(body)),
           let summary = errors.summary {
            return summary
        }
        return body.isEmpty ? "the response body is empty" : "the response body was \(ResponseExcerpt.of(body))"
    }

    private static func detail(for error: DecodingError, body: [UInt8]) -> String {
        if body.isEmpty { return "the body is empty" }
        if let errors = try? JSONDecoder().decode(CoinbaseErrorResponse.self, from: Data(body)),
           let summary = errors.summary {
            return "it holds errors instead of a price: \(summary)"
        }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return "the body is not valid JSON: \(ResponseExcerpt.of(body))"
        }
        return error.sentence
    }
}
