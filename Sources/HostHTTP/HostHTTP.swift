import HostHTTPABI
import HostShared

// libHostHTTP.so: the host's HTTP client, behind the C contract in
// host_http.h. The host loads it on its first http(s) request.

/// Fails to compile if the exports drift from the header's typedefs.
private let exportsMatchHeader: (host_http_abi_version_fn, host_http_get_fn) = (hostHTTPABIVersion, hostHTTPGet)

/// The `HOST_HTTP_ABI_VERSION` this library was built with; the host checks
/// it before any other call.
@c(host_http_abi_version)
public func hostHTTPABIVersion() -> UInt32 {
    HOST_HTTP_ABI_VERSION
}

/// Starts a GET and answers through `completion`, exactly once. A redirect
/// is answered, with its location, never followed.
/// - Parameters:
///   - request: The URL, deadline, body limit, proxy and trust roots,
///     copied before this returns.
///   - completion: Receives the response or why none arrived.
///   - requestContext: Handed back to `completion` untouched.
@c(host_http_get)
public func hostHTTPGet(
    _ request: UnsafePointer<host_http_request>?, _ completion: host_http_completion_fn?, _ requestContext: UnsafeMutableRawPointer?
) {
    guard let completion else { return }
    let reply = Reply(completion: completion, context: requestContext)
    guard let request else { return reply.send(HostHTTPAnswer(LibraryError(.other, "no request given"))) }
    // Fields past the host's `struct_size` are not there to read.
    guard request.pointee.struct_size >= MemoryLayout<host_http_request>.size else {
        return reply.send(HostHTTPAnswer(LibraryError(.other, "the host sent a \(request.pointee.struct_size)-byte request; rebuild it with `swift build`")))
    }
    guard let spec = RequestSpec(request.pointee) else { return reply.send(HostHTTPAnswer(LibraryError(.other, "no URL given"))) }
    Task {
        reply.send(await HTTPGet.perform(spec))
    }
}

/// The completion a caller passed, with the context to hand back.
private struct Reply: @unchecked Sendable {
    // @unchecked: the context belongs to the host, which promises in
    // host_http.h that it may be handed back from any thread.
    let completion: host_http_completion_fn
    let context: UnsafeMutableRawPointer?

    /// Calls the completion with `answer`, as a response that lives only for the call.
    func send(_ answer: HostHTTPAnswer) {
        answer.send(to: completion, context: context)
    }
}

extension HostHTTPAnswer {
    /// The answer for a request that failed with `failure`.
    init(_ failure: LibraryError) {
        self = .failure(failure.message, kind: failure.kind.rawValue)
    }
}
