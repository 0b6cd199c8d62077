/// The body of a successful `GET /api/v2/ticker/{pair}/`:
/// `{"timestamp":"1723398353","open":"60940","high":"61868","low":"59959","last":"60192",
/// "volume":"1008.29813067","vwap":"60962","bid":"60173","ask":"60175","side":"1",
/// "open_24":"60652","percent_change_24":"-0.76","pair":"BTC/USD"}`.
///
/// Only `last`, the price of the last trade, is read, and `pair` when the
/// answer has it; every other key is ignored.
struct BitstampTickerResponse: Decodable {
    let last: DecimalAmount
    /// `BASE/QUOTE`, e.g. `BTC/USD`; absent from older answers.
    let pair: String?
}

/// What Bitstamp sends instead of a ticker, in any of the shapes its API uses:
///
/// - `{"status":"error","reason":"Invalid nonce","code":"API0004"}`
/// - `{"status":"error","reason":{"__all__":["Minimum order size is 5.0 EUR."]}}`
/// - `{"error":"No permission found"}`
/// - `{"errors":[{"id":"not_found","message":"…"}]}`, which the host's
///   `file://` reads answer for a missing fixture.
struct BitstampErrorResponse: Decodable {
    private enum Reason: Decodable {
        case text(String)
        case fields([String: [String]])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .fields(try container.decode([String: [String]].self))
            }
        }
    }

    private let status: String?
    private let reason: Reason?
    private let code: String?
    private let error: String?
    private let errors: [CoinbaseErrorResponse.Entry]?

    /// Every message in the body, joined with `; `, and the code after them
    /// in parentheses; nil when the body says nothing.
    var summary: String? {
        var messages: [String] = []
        switch reason {
        case .text(let text)?: messages.append(text)
        // `__all__` first, then by field name, so the line reads the same every time.
        case .fields(let fields)?:
            for key in fields.keys.sorted(by: { $0 == "__all__" || ($1 != "__all__" && $0 < $1) }) {
                messages += fields[key, default: []].map { key == "__all__" ? $0 : "\(key): \($0)" }
            }
        case nil: break
        }
        if let error { messages.append(error) }
        if let errors, let summary = CoinbaseErrorResponse(errors: errors).summary { messages.append(summary) }
        if messages.isEmpty, status == "error" { messages.append("error") }
        guard !messages.isEmpty else { return nil }
        let line = messages.joined(separator: "; ")
        return code.map { "\(line) (\($0))" } ?? line
    }
}
