/// Something that knows the current price of one asset.
///
/// A fetcher answers for a single ``symbol`` and may be asked from any task
/// at any time, so it must be `Sendable`. It takes what it needs (a
/// ``Networking`` service, a base URL) through its initializer, which is
/// what lets tests inject simulated networking.
///
/// ```swift
/// let fetcher = CoinbaseSpotFetcher(base: "ETH", networking: networking, apiBaseURL: apiBaseURL)
/// let price = try await fetcher.price(in: "USD")
/// ```
public protocol PriceFetcher: Sendable {
    /// The ticker this fetcher answers for: upper-case ASCII, e.g. `"ETH"`.
    var symbol: String { get }

    /// A human-readable name, e.g. `"Ethereum"`. Defaults to ``symbol``.
    var displayName: String { get }

    /// Fetches the current price of ``symbol``.
    ///
    /// - Parameters:
    ///   - currency: The quote currency, e.g. `"USD"`; case does not matter.
    ///   - timeout: An upper bound for the network work, or `nil` for the
    ///     networking service's default.
    /// - Returns: The price, with its amount exactly as the source sent it.
    /// - Throws: An error whose `description` is one line a user can act on.
    func price(in currency: String, timeout: Duration?) async throws -> Price
}

extension PriceFetcher {
    /// The ``symbol`` itself.
    public var displayName: String { symbol }

    /// Fetches the current price of ``symbol`` with the networking service's
    /// default timeout.
    ///
    /// - Parameter currency: The quote currency, e.g. `"USD"`.
    /// - Returns: The price, with its amount exactly as the source sent it.
    /// - Throws: An error whose `description` is one line a user can act on.
    public func price(in currency: String) async throws -> Price {
        try await price(in: currency, timeout: nil)
    }
}
