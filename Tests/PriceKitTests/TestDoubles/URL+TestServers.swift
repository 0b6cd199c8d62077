import Foundation

extension URL {
    /// The real API root; the doubles never contact it.
    static let coinbase = URL(string: "https://api.coinbase.com")!
}
