import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOPosix

/// Real HTTP and HTTPS through AsyncHTTPClient.
public struct AsyncHTTPClientNetworking: HostNetworking {
    /// One client for the life of the process, so it never needs a shutdown.
    ///
    /// Connection attempts are not retried: a command-line run should say
    /// "connection refused" at once rather than retry until its deadline.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The most body bytes accepted; a spot price is a few hundred.
    let maximumBodySize: Int

    /// Creates networking backed by a process-wide `HTTPClient`.
    /// - Parameter maximumBodySize: Responses larger than this fail.
    public init(maximumBodySize: Int = 1 << 20) {
        self.maximumBodySize = maximumBodySize
    }

    /// Performs a GET with `Accept: application/json`.
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - timeout: The deadline for the whole request, body included.
    /// - Returns: The status and body, whatever the status; or a one-line
    ///   failure such as "timed out after 2 s", "connection refused" or
    ///   "response body larger than 1048576 bytes".
    public func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "patchbay-host")
        let deadline = NIODeadline.now() + .nanoseconds(timeout.nanoseconds)
        do {
            let response = try await Self.client.execute(request, deadline: deadline)
            let body = try await response.body.collect(upTo: maximumBodySize)
            return .response(status: Int(response.status.code), body: Array(body.readableBytesView))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return .failure("timed out after \(timeout.humanReadable)")
        } catch let error as NIOTooManyBytesError {
            _ = error
            return .failure("response body larger than \(maximumBodySize) bytes")
        } catch {
            return .failure(Self.describe(error))
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
