/// The result of ``HostNetworking/get(_:timeout:)``.
package enum HTTPOutcome: Sendable, Equatable {
    /// A response arrived, whatever its status.
    case response(status: Int, body: [UInt8])
    /// No response arrived; the string says why in one line, e.g.
    /// "timed out after 2 s" or "connection refused".
    ///
    /// Text, not a type: this is the line the plugin's `http_get`
    /// completion gets through the C ABI (and a worker in a frame), made
    /// where the request is answered from the typed failures it words
    /// (`URLPolicyViolation`, `SystemError`, the HTTP library's failure kind).
    case failure(String)
}
