import AsyncHTTPClient
import HostHTTPABI
import HostShared
import NIOCore
import NIOPosix

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
///   - url: An absolute http or https URL, copied before this returns.
///   - timeoutMilliseconds: The deadline for the whole request, body included.
///   - maximumBodyBytes: A larger body fails the request.
///   - completion: Receives the response or why none arrived.
///   - requestContext: Handed back to `completion` untouched.
@c(host_http_get)
public func hostHTTPGet(
    _ url: UnsafePointer<CChar>?, _ timeoutMilliseconds: UInt32, _ maximumBodyBytes: UInt64,
    _ completion: host_http_completion_fn?, _ requestContext: UnsafeMutableRawPointer?
) {
    guard let completion else { return }
    let reply = Reply(completion: completion, context: requestContext)
    guard let url else { return reply.send(.failure("no URL given")) }
    let request = String(cString: url)
    let timeout = Duration.milliseconds(Int64(timeoutMilliseconds))
    let maximumBodySize = Int(clamping: maximumBodyBytes)
    Task {
        reply.send(await HTTPGet.perform(request, timeout: timeout, maximumBodySize: maximumBodySize))
    }
}

/// What came of a GET.
enum Outcome {
    /// `location` is a 3xx response's `Location` header, as sent.
    case response(status: Int, body: [UInt8], location: String?)
    case failure(String)
}

/// The completion a caller passed, with the context to hand back.
private struct Reply: @unchecked Sendable {
    // @unchecked: the context belongs to the host, which promises in
    // host_http.h that it may be handed back from any thread.
    let completion: host_http_completion_fn
    let context: UnsafeMutableRawPointer?

    private static let structSize = UInt32(MemoryLayout<host_http_response>.size)

    /// Calls the completion with a response that lives only for the call.
    func send(_ outcome: Outcome) {
        switch outcome {
        case .response(let status, let body, let location):
            body.withUnsafeBufferPointer { bytes in
                withOptionalCString(location) { location in
                    var response = host_http_response(
                        struct_size: Self.structSize, status: Int32(clamping: status), body: bytes.baseAddress, body_length: bytes.count,
                        location: location, error: nil)
                    completion(context, &response)
                }
            }
        case .failure(let reason):
            reason.withCString { reason in
                var response = host_http_response(
                    struct_size: Self.structSize, status: 0, body: nil, body_length: 0, location: nil, error: reason)
                completion(context, &response)
            }
        }
    }

    private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}

/// Real HTTP and HTTPS through AsyncHTTPClient.
enum HTTPGet {
    /// One client for the life of the process, so it never needs a shutdown.
    ///
    /// Connection attempts are not retried: a command-line run should say
    /// "connection refused" at once rather than retry until its deadline.
    /// Redirects are not followed: the host checks each hop against its URL
    /// policy before it asks for the next.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Performs a GET with `Accept: application/json`.
    /// - Returns: The status and body, whatever the status, with the
    ///   location of a redirect; or a one-line
    ///   failure such as "timed out after 2 s", "connection refused" or
    ///   "response body larger than 1048576 bytes".
    static func perform(_ url: String, timeout: Duration, maximumBodySize: Int) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "patchbay-host")
        let deadline = NIODeadline.now() + .nanoseconds(timeout.nanoseconds)
        do {
            let response = try await client.execute(request, deadline: deadline)
            let body = try await response.body.collect(upTo: maximumBodySize)
            let location = (300..<400).contains(response.status.code) ? response.headers.first(name: "Location") : nil
            return .response(status: Int(response.status.code), body: Array(body.readableBytesView), location: location)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return .failure("timed out after \(timeout.humanReadable)")
        } catch is NIOTooManyBytesError {
            return .failure("response body larger than \(maximumBodySize) bytes")
        } catch {
            return .failure(describe(error))
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
