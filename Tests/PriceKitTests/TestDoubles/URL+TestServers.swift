import Foundation

extension URL {
    /// The real API root; the doubles never contact it.
    static let coinbase = URL(string: "https://api.coinbase.com")!
}

extension URL {
    /// Bitstamp's real API root; the doubles never contact it.
    static let bitstamp = URL(string: "https://www.bitstamp.net")!
}
