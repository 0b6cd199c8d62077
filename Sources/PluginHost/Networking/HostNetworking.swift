import FoundationEssentials

/// The networking the host performs on its plugins' behalf.
///
/// Plugins never open sockets. They ask the host through the C ABI's
/// `http_get` service, and the host answers with whatever `HostNetworking`
/// its composition root was given: real HTTP, fixture files, or a simulation
/// in tests. The host checks every URL against its ``URLPolicy`` before it
/// gets here, and each redirect before it asks for the next hop.
package protocol HostNetworking: Sendable {
    /// Performs a GET and returns the response, or the reason none arrived.
    ///
    /// Implementations never throw: a transport failure is a value, because
    /// it has to be handed to a C callback either way. Redirects are not
    /// followed: a 3xx is a response like any other.
    /// - Parameters:
    ///   - url: The absolute URL to fetch.
    ///   - timeout: Upper bound for the whole request.
    /// - Returns: The status and body, or a transport failure.
    func get(_ url: URL, timeout: Duration) async -> HTTPOutcome

    /// Performs one hop of a GET: like ``get(_:timeout:)``, but a redirect
    /// comes back as ``HTTPHop/redirect(status:location:)`` for the host to
    /// check, and a request the networking itself refuses as
    /// ``HTTPHop/refused(_:)``.
    ///
    /// The default answers ``get(_:timeout:)``'s outcome: right for
    /// networking that never redirects or refuses.
    /// - Parameters:
    ///   - url: The absolute URL to fetch.
    ///   - timeout: Upper bound for this hop.
    /// - Returns: The outcome, the redirect, or the refusal.
    func hop(_ url: URL, timeout: Duration) async -> HTTPHop
}

extension HostNetworking {
    /// Answers ``get(_:timeout:)``'s outcome.
    package func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
        .outcome(await get(url, timeout: timeout))
    }
}
