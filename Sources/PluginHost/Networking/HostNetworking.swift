#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The networking the host performs on its plugins' behalf.
///
/// Plugins never open sockets. They ask the host through the C ABI's
/// `http_get` service, and the host answers with whatever `HostNetworking`
/// its composition root was given: real HTTP, fixture files, or a simulation
/// in tests.
public protocol HostNetworking: Sendable {
    /// Performs a GET and returns the response, or the reason none arrived.
    ///
    /// Implementations never throw: a transport failure is a value, because
    /// it has to be handed to a C callback either way.
    /// - Parameters:
    ///   - url: The absolute URL to fetch.
    ///   - timeout: Upper bound for the whole request.
    /// - Returns: The status and body, or a transport failure.
    func get(_ url: URL, timeout: Duration) async -> HTTPOutcome
}

/// The result of ``HostNetworking/get(_:timeout:)``.
public enum HTTPOutcome: Sendable, Equatable {
    /// A response arrived, whatever its status.
    case response(status: Int, body: [UInt8])
    /// No response arrived; the string says why in one line, e.g.
    /// "timed out after 2 s" or "connection refused".
    case failure(String)
}
