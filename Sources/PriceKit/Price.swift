/// The price of one unit of an asset in a quote currency.
///
/// ```swift
/// let price = Price(base: "BTC", currency: "USD", amount: try DecimalAmount("15840.01"))
/// print(price)   // 1 BTC = 15840.01 USD
/// ```
public struct Price: Sendable, Hashable, CustomStringConvertible {
    /// The asset being priced, e.g. `"BTC"`.
    public let base: String
    /// The currency the price is quoted in, e.g. `"USD"`.
    public let currency: String
    /// How many units of ``currency`` one unit of ``base`` costs, exactly as
    /// the source sent it.
    public let amount: DecimalAmount

    /// Creates a price.
    ///
    /// - Parameters:
    ///   - base: The asset being priced, e.g. `"BTC"`.
    ///   - currency: The quote currency, e.g. `"USD"`.
    ///   - amount: The exact amount of `currency` per unit of `base`.
    public init(base: String, currency: String, amount: DecimalAmount) {
        self.base = base
        self.currency = currency
        self.amount = amount
    }

    /// Reads like `1 BTC = 15840.01 USD`.
    public var description: String { "1 \(base) = \(amount) \(currency)" }
}
