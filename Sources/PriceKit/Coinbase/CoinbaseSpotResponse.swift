/// The body of a successful `GET /v2/prices/{BASE}-{CURRENCY}/spot`:
/// `{"data":{"base":"BTC","currency":"USD","amount":"15840.01"},"warnings":[…]}`.
///
/// `warnings` (and any other extra key) is ignored: it carries advice for
/// API clients, such as a missing `CB-VERSION` header, not price data.
struct CoinbaseSpotResponse: Decodable {
    struct Quote: Decodable {
        let base: String
        let currency: String
        let amount: DecimalAmount
    }

    let data: Quote
}

/// The body Coinbase sends with an error status:
/// `{"errors":[{"id":"not_found","message":"Invalid base currency"}]}`.
struct CoinbaseErrorResponse: Decodable {
    struct Entry: Decodable {
        let id: String?
        let message: String?
    }

    let errors: [Entry]

    /// Every entry as `message (id)`, joined with `; `; `nil` when no entry
    /// says anything.
    var summary: String? {
        let parts = errors.compactMap { entry -> String? in
            switch (entry.message, entry.id) {
            case (let message?, let id?): "\(message) (\(id))"
            case (let message?, nil): message
            case (nil, let id?): id
            case (nil, nil): nil
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
