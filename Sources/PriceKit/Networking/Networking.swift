#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one way PriceKit reaches the network: an asynchronous HTTP GET.
///
/// Fetchers take a `Networking` value in their initializer instead of
/// opening connections themselves. In a plugin, the SDK passes one that asks
/// the host to do the request; in tests, a double answers from memory.
///
/// ```swift
/// struct CannedNetworking: Networking {
///     func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
///         HTTPResponse(status: 200, body: Array(#"{"data":{"base":"BTC","currency":"USD","amount":"1.00"}}"#.utf8))
///     }
/// }
/// ```
public protocol Networking: Sendable {
    /// Performs a GET request and returns whatever response arrived.
    ///
    /// Any status code, 404 and 500 included, is a response, not an error.
    ///
    /// - Parameters:
    ///   - url: The `http`, `https` or `file` URL to read.
    ///   - timeout: An upper bound for the whole request, or `nil` for the
    ///     implementation's default.
    /// - Returns: The status code and the body bytes.
    /// - Throws: ``TransportError`` when no response arrived at all:
    ///   refused connection, timeout, missing file.
    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse
}
