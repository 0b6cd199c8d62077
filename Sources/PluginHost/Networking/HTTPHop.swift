/// The result of ``HostNetworking/hop(_:timeout:)``: one step of a GET.
package enum HTTPHop: Sendable, Equatable {
    /// The request ended here: a response, or why none arrived.
    case outcome(HTTPOutcome)
    /// A 3xx response with a `Location`, as the server sent it (possibly
    /// relative to the URL asked). The host follows it only if its policy
    /// allows the URL it leads to.
    case redirect(status: Int, location: String)
    /// The networking would not perform the request; the string says why in
    /// one line, e.g. "it leads out of /srv/fixtures through a symbolic link".
    case refused(String)
    /// An answer that asking again may improve: a 429 or 5xx response, or a
    /// connection dropped mid-request. The host asks again while the
    /// request's deadline allows, after `retryAfter` when the server named
    /// a delay (its `Retry-After`), else after a short backoff; otherwise
    /// `outcome` stands.
    case transient(HTTPOutcome, retryAfter: Duration?)
}
