import AsyncHTTPClient
import HostHTTPABI
import HostShared
import NIOCore
import NIOPosix
import NIOSSL

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
    guard let request else { return reply.send(HostHTTPAnswer(LibraryFailure(.other, "no request given"))) }
    // Fields past the host's `struct_size` are not there to read.
    guard request.pointee.struct_size >= MemoryLayout<host_http_request>.size else {
        return reply.send(HostHTTPAnswer(LibraryFailure(.other, "the host sent a \(request.pointee.struct_size)-byte request; rebuild it with `swift build`")))
    }
    guard let spec = RequestSpec(request.pointee) else { return reply.send(HostHTTPAnswer(LibraryFailure(.other, "no URL given"))) }
    Task {
        reply.send(await HTTPGet.perform(spec))
    }
}

/// A request copied out of its `host_http_request`.
struct RequestSpec: Sendable {
    let url: String
    let timeout: Duration
    let maximumBodySize: Int
    /// Which client performs it: the proxy and the trust roots.
    let client: ClientKey

    init?(_ request: host_http_request) {
        guard let url = request.url else { return nil }
        self.url = String(cString: url)
        self.timeout = .milliseconds(Int64(request.timeout_ms))
        self.maximumBodySize = Int(clamping: request.max_body_bytes)
        let proxy = request.proxy_host.map { host in
            ClientKey.Proxy(
                host: String(cString: host), port: Int(request.proxy_port), username: request.proxy_username.map { String(cString: $0) },
                password: request.proxy_password.map { String(cString: $0) })
        }
        let paths = (0..<request.ca_path_count).compactMap { index in request.ca_paths?[index].map { String(cString: $0) } }
        self.client = ClientKey(proxy: proxy, trustsSystemRoots: request.trust_system_roots != 0, caPaths: paths)
    }
}

/// Why no response arrived: a `HOST_HTTP_FAILURE_*` kind and a sentence
/// that names no flag.
struct LibraryFailure: Error {
    enum Kind: Int32 {
        case other = 1, timeout, connectionReset, certificateUntrusted, certificateExpired, certificateNotYetValid, certificateWrongName,
            trustRoots, proxy
    }

    let kind: Kind
    let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
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
    init(_ failure: LibraryFailure) {
        self = .failure(failure.message, kind: failure.kind.rawValue)
    }
}

/// Real HTTP and HTTPS through AsyncHTTPClient.
enum HTTPGet {
    /// Performs a GET with `Accept: application/json`.
    /// - Returns: The status and body, whatever the status, with the
    ///   location of a redirect and the `Retry-After` of a 429 or 5xx; or a
    ///   one-line failure such as "timed out after 2 s", "connection
    ///   refused", "response body larger than 1048576 bytes", or why the
    ///   server's certificate was refused.
    static func perform(_ spec: RequestSpec) async -> HostHTTPAnswer {
        let client: HTTPClient
        switch HTTPClients.client(for: spec.client) {
        case .success(let found): client = found
        case .failure(let failure): return HostHTTPAnswer(failure)
        }
        var request = HTTPClientRequest(url: spec.url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "patchbay-host")
        let deadline = NIODeadline.now() + .nanoseconds(spec.timeout.nanoseconds)
        do {
            let response = try await client.execute(request, deadline: deadline)
            let body = try await response.body.collect(upTo: spec.maximumBodySize)
            let status = Int(response.status.code)
            let location = (300..<400).contains(status) ? response.headers.first(name: "Location") : nil
            let retryAfter = status == 429 || status >= 500 ? response.headers.first(name: "Retry-After") : nil
            return HostHTTPAnswer(reply: .response(status: status, body: Array(body.readableBytesView)), location: location, retryAfter: retryAfter)
        } catch {
            return HostHTTPAnswer(await failure(error, spec: spec, deadline: deadline))
        }
    }

    /// Classifies an error, diagnosing a refused certificate with a second
    /// handshake that keeps the server's chain.
    static func failure(_ error: any Error, spec: RequestSpec, deadline: NIODeadline) async -> LibraryFailure {
        let target = Endpoint(url: spec.url)
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
            return LibraryFailure(.timeout, "timed out after \(spec.timeout.humanReadable)")
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            return LibraryFailure(.connectionReset, "\(target) closed the connection before it answered")
        case let error as HTTPClientError where error == .proxyAuthenticationRequired:
            return LibraryFailure(.proxy, "the proxy \(spec.client.proxy?.address ?? "") asked for credentials (HTTP 407); give them in the proxy URL")
        case let error as HTTPClientError where error == .invalidProxyResponse:
            return LibraryFailure(.proxy, "the proxy \(spec.client.proxy?.address ?? "") refused to open a tunnel to \(target)")
        case let error as HTTPClientError where error == .httpProxyHandshakeTimeout:
            return LibraryFailure(.proxy, "the proxy \(spec.client.proxy?.address ?? "") did not open a tunnel to \(target) in time")
        case is NIOTooManyBytesError:
            return LibraryFailure(.other, "response body larger than \(spec.maximumBodySize) bytes")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return LibraryFailure(.certificateWrongName, "the TLS certificate of \(target) is not valid for the name \(target.host)")
        case NIOSSLError.handshakeFailed(.sslError(let stack)) where stack.contains(where: CertificateDiagnosis.isVerificationFailure):
            let reason = await CertificateDiagnosis.diagnose(target, client: spec.client, deadline: deadline)
            return reason.failure(for: target)
        case NIOSSLError.handshakeFailed(let failure):
            return LibraryFailure(.other, "the TLS handshake with \(target) failed (\(CertificateDiagnosis.reasonName(failure)))")
        case NIOSSLError.uncleanShutdown:
            return LibraryFailure(.connectionReset, "\(target) closed the TLS connection before it answered")
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            return LibraryFailure(.connectionReset, describe(error))
        case let error as NIOConnectionError:
            if let proxy = spec.client.proxy, error.host == proxy.host, error.port == proxy.port {
                return LibraryFailure(.proxy, "cannot connect to the proxy \(proxy.address): \(describe(error))")
            }
            return LibraryFailure(.other, describe(error))
        default:
            return LibraryFailure(.other, describe(error))
        }
    }

    /// NIO's errors print as type dumps; keep the part a person can act on.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first { return describe(failure.error) }
            if let dns = error.dnsAError ?? error.dnsAAAAError { return describe(dns) }
            return "could not connect to \(error.host):\(error.port)"
        case let error as SocketAddressError.UnknownHost:
            return "cannot resolve host \(error.host) (\(error.errorDescription.lowercased()))"
        case let error as HTTPClientError:
            return "\(error)"
        default:
            return String(describing: error)
        }
    }
}

/// The host and port a URL names, as a person writes them.
struct Endpoint: Sendable, CustomStringConvertible {
    let host: String
    let port: Int

    /// Reads the authority of an absolute URL; the host has already checked
    /// it, so this only takes it apart.
    init(url: String) {
        var rest = Substring(url)
        let isHTTPS = rest.lowercased().hasPrefix("https:")
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let authority = rest.prefix { !"/?#".contains($0) }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        var host = Substring(hostPort)
        var port = isHTTPS ? 443 : 80
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":"), let number = Int(after.dropFirst()) { port = number }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            if let number = Int(host[host.index(after: colon)...]) { port = number }
            host = host[..<colon]
        }
        self.host = String(host)
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
