/// No response arrived: the request failed before any status code.
///
/// The ``reason`` is the networking layer's own words, such as
/// `"timed out after 5 s"` or `"connection refused"`, and is shown to the
/// user as it is.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the networking layer's words.
    public let reason: String

    /// Creates a transport error.
    ///
    /// - Parameter reason: What went wrong, e.g. `"timed out after 5 s"`.
    public init(reason: String) {
        self.reason = reason
    }

    /// The ``reason``, on one line.
    public var description: String { reason.singleLine }
}
