#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DurationUnits
import HostHTTPABI
import PluginABI
import Synchronization

/// Real HTTP and HTTPS through AsyncHTTPClient, which lives in
/// `libHostHTTP.so` and is loaded on the first request.
///
/// AsyncHTTPClient brings SwiftNIO's HTTP/1, HTTP/2, TLS and compression with
/// it. Linked into `host`, they would cost every command about 1.5 ms of
/// start-up, though only `fetch` over http(s) uses them. The library is
/// found beside the running executable, where `swift build` puts it, and
/// like a plugin it is loaded once and never unloaded; only C crosses to it
/// (`host_http.h`).
public struct AsyncHTTPClientNetworking: HostNetworking {
    /// The library's file name.
    public static let libraryName = "libHostHTTP.so"

    /// The most body bytes accepted; a spot price is a few hundred.
    let maximumBodySize: Int
    /// Where the library is, resolved on the first request.
    let libraryPath: String?

    /// Creates networking backed by the process-wide client in `libHostHTTP.so`.
    /// - Parameters:
    ///   - maximumBodySize: Responses larger than this fail.
    ///   - libraryPath: The library to load; by default `libHostHTTP.so`
    ///     beside the running executable.
    public init(maximumBodySize: Int = 1 << 20, libraryPath: String? = nil) {
        self.maximumBodySize = maximumBodySize
        self.libraryPath = libraryPath
    }

    /// Performs a GET with `Accept: application/json`.
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - timeout: The deadline for the whole request, body included.
    /// - Returns: The status and body, whatever the status; or a one-line
    ///   failure such as "timed out after 2 s", "connection refused",
    ///   "response body larger than 1048576 bytes", or why the library could
    ///   not be loaded.
    public func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        let path = libraryPath ?? FilePaths.join(PluginDiscovery.runningExecutableDirectory, Self.libraryName)
        let library: HTTPLibrary
        switch HTTPLibrary.loaded(from: path) {
        case .success(let loaded): library = loaded
        case .failure(let problem): return .failure(problem.message)
        }
        let milliseconds = max(timeout.clampedMilliseconds, 1)
        let maximumBodyBytes = UInt64(max(maximumBodySize, 0))
        return await withCheckedContinuation { continuation in
            let waiter = Unmanaged.passRetained(Waiter(continuation)).toOpaque()
            url.absoluteString.withCString { url in
                library.get(url, milliseconds, maximumBodyBytes, Waiter.resume, waiter)
            }
        }
    }
}

/// The entry points of a loaded `libHostHTTP.so`.
private struct HTTPLibrary: Sendable {
    let get: host_http_get_fn

    /// Why the library cannot be used, as the line a user sees.
    struct Problem: Error {
        let message: String
    }

    /// Loaded libraries and failures, by path: loading is tried once.
    private static let loaded = Mutex<[String: Result<HTTPLibrary, Problem>]>([:])

    /// The library at `path`, loaded on first use and checked before any call.
    static func loaded(from path: String) -> Result<HTTPLibrary, Problem> {
        loaded.withLock { loaded in
            if let known = loaded[path] { return known }
            let result = Result { () throws(Problem) in try load(path) }
            loaded[path] = result
            return result
        }
    }

    private static func load(_ path: String) throws(Problem) -> HTTPLibrary {
        let name = AsyncHTTPClientNetworking.libraryName
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary.open(path)
        } catch {
            guard case .notALibrary(let reason) = error.kind else { throw Problem(message: "cannot load \(path): \(error)") }
            throw Problem(message: "cannot load \(path), the host's HTTP client (\(reason)); build it with `swift build`")
        }
        guard let versionSymbol = library.symbol(named: "host_http_abi_version"),
            let getSymbol = library.symbol(named: "host_http_get")
        else {
            throw Problem(message: "\(path) is not the host's HTTP client: it lacks host_http_get; rebuild it with `swift build`")
        }
        let version = unsafeBitCast(versionSymbol, to: host_http_abi_version_fn.self)()
        guard version == HOST_HTTP_ABI_VERSION else {
            throw Problem(
                message: "\(name) has HTTP ABI version \(version) but this host needs \(HOST_HTTP_ABI_VERSION); rebuild both with `swift build`")
        }
        return HTTPLibrary(get: unsafeBitCast(getSymbol, to: host_http_get_fn.self))
    }
}

/// The continuation of one request, passed through C as its context.
private final class Waiter: Sendable {
    let continuation: CheckedContinuation<HTTPOutcome, Never>

    init(_ continuation: CheckedContinuation<HTTPOutcome, Never>) {
        self.continuation = continuation
    }

    /// The completion handed to the library, which calls it exactly once.
    static let resume: pb_http_completion_fn = { context, response in
        guard let context else { return }
        let waiter = Unmanaged<Waiter>.fromOpaque(context).takeRetainedValue()
        guard let response else {
            return waiter.continuation.resume(returning: .failure("the HTTP client answered without a response"))
        }
        waiter.continuation.resume(returning: HTTPOutcome(response.pointee))
    }
}

extension HTTPOutcome {
    /// Copies a response that is valid only during its completion call.
    init(_ response: pb_http_response) {
        if let error = response.error {
            self = .failure(String(cString: error))
        } else {
            let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
            self = .response(status: Int(response.status), body: body)
        }
    }
}
