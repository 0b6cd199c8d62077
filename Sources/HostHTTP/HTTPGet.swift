import AsyncHTTPClient
import HostShared
import NIOCore
import NIOPosix
import NIOSSL

import Glibc

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
    static func failure(_ error: any Error, spec: RequestSpec, deadline: NIODeadline) async -> LibraryError {
        let target = Endpoint(url: spec.url)
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
            return LibraryError(.timeout, "timed out after \(spec.timeout.humanReadable)")
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            return LibraryError(.connectionReset, "\(target) closed the connection before it answered")
        case let error as HTTPClientError where error == .proxyAuthenticationRequired:
            return LibraryError(.proxy, "the proxy \(spec.client.proxy?.address ?? "") asked for credentials (HTTP 407); give them in the proxy URL")
        case let error as HTTPClientError where error == .invalidProxyResponse:
            return LibraryError(.proxy, "the proxy \(spec.client.proxy?.address ?? "") refused to open a tunnel to \(target)")
        case let error as HTTPClientError where error == .httpProxyHandshakeTimeout:
            return LibraryError(.proxy, "the proxy \(spec.client.proxy?.address ?? "") did not open a tunnel to \(target) in time")
        case is NIOTooManyBytesError:
            return LibraryError(.other, "response body larger than \(spec.maximumBodySize) bytes")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return LibraryError(.certificateWrongName, "the TLS certificate of \(target) is not valid for the name \(target.host)")
        case NIOSSLError.handshakeFailed(.sslError(let stack)) where stack.contains(where: CertificateDiagnosis.isVerificationFailure):
            let reason = await CertificateDiagnosis.diagnose(target, client: spec.client, deadline: deadline)
            return reason.failure(for: target)
        case NIOSSLError.handshakeFailed(let failure):
            return LibraryError(.other, "the TLS handshake with \(target) failed (\(CertificateDiagnosis.reasonName(failure)))")
        case NIOSSLError.uncleanShutdown:
            return LibraryError(.connectionReset, "\(target) closed the TLS connection before it answered")
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            return LibraryError(.connectionReset, describe(error))
        case let error as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN].contains(error.errnoCode):
            return LibraryError(.unreachable, describe(error))
        case is SocketAddressError.UnknownHost:
            return LibraryError(.unreachable, describe(error))
        case let error as NIOConnectionError:
            if let proxy = spec.client.proxy, error.host == proxy.host, error.port == proxy.port {
                return LibraryError(.proxy, "cannot connect to the proxy \(proxy.address): \(describe(error))")
            }
            return LibraryError(.unreachable, describe(error))
        default:
            return LibraryError(.other, describe(error))
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
