/// A response that arrived, whatever its status.
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code, e.g. `200` or `404`.
    public var status: Int
    /// The response body, byte for byte.
    public var body: [UInt8]

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - body: The body bytes; empty by default.
    public init(status: Int, body: [UInt8] = []) {
        self.status = status
        self.body = body
    }

    /// Whether ``status`` is in the 2xx range.
    public var isSuccess: Bool { (200...299).contains(status) }
}
