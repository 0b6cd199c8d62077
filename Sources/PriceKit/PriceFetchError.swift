/// Why a price could not be fetched.
///
/// Its ``description`` is always one line meant for the user, and it says
/// what failed with the values involved:
///
/// - `Invalid quote currency "US D": use 2 to 10 ASCII letters or digits, e.g. "USD"`
/// - `Coinbase answered HTTP 404 for BTC-XYZ: Invalid currency (not_found)`
/// - `Could not decode the Coinbase response for ETH-USD: the key "data.amount" is missing`
/// - `Could not reach https://api.coinbase.com/v2/prices/ETH-USD/spot: timed out after 5 s`
///
/// Match on ``code`` rather than on the text, which may be reworded.
public struct PriceFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, stable across releases.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case invalidRequest, httpStatus, undecodableResponse, unreachable
        }

        private let value: Value

        /// The asset or currency code given was not a valid code, so no
        /// request was sent. Fix the code the fetcher was created or called with.
        public static let invalidRequest = Code(value: .invalidRequest)
        /// The API answered with a non-2xx status; the description carries
        /// the API's own message.
        public static let httpStatus = Code(value: .httpStatus)
        /// The API answered 2xx, but the body was not the expected JSON.
        public static let undecodableResponse = Code(value: .undecodableResponse)
        /// No response arrived: connection failure, timeout, missing file.
        public static let unreachable = Code(value: .unreachable)

        /// The code's name, e.g. `httpStatus`.
        public var description: String { value.rawValue }
    }

    private enum Reason: Sendable, Hashable {
        case invalidCode(role: String, value: String, example: String)
        case httpStatus(source: String, pair: String, status: Int, message: String)
        case undecodable(source: String, pair: String, detail: String)
        case unreachable(url: String, reason: String)
    }

    private let reason: Reason

    private init(_ reason: Reason) {
        self.reason = reason
    }

    /// The kind of failure.
    public var code: Code {
        switch reason {
        case .invalidCode: .invalidRequest
        case .httpStatus: .httpStatus
        case .undecodable: .undecodableResponse
        case .unreachable: .unreachable
        }
    }

    /// The HTTP status the API answered with, when ``code`` is
    /// ``Code/httpStatus``; otherwise `nil`.
    public var httpStatus: Int? {
        if case .httpStatus(_, _, let status, _) = reason { status } else { nil }
    }

    /// One line for the user saying what failed, with its values.
    public var description: String {
        switch reason {
        case .invalidCode(let role, let value, let example):
            "Invalid \(role) \"\(value.singleLine)\": use 2 to 10 ASCII letters or digits, e.g. \"\(example)\""
        case .httpStatus(let source, let pair, let status, let message):
            "\(source) answered HTTP \(status) for \(pair): \(message.singleLine)"
        case .undecodable(let source, let pair, let detail):
            "Could not decode the \(source) response for \(pair): \(detail.singleLine)"
        case .unreachable(let url, let reason):
            "Could not reach \(url.singleLine): \(reason.singleLine)"
        }
    }

    static func invalidCode(role: String, value: String, example: String) -> Self {
        Self(.invalidCode(role: role, value: value, example: example))
    }

    static func httpStatus(source: String, pair: String, status: Int, message: String) -> Self {
        Self(.httpStatus(source: source, pair: pair, status: status, message: message))
    }

    static func undecodable(source: String, pair: String, detail: String) -> Self {
        Self(.undecodable(source: source, pair: pair, detail: detail))
    }

    static func unreachable(url: String, reason: String) -> Self {
        Self(.unreachable(url: url, reason: reason))
    }
}
