#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HostHTTPABI
import HostShared
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Real HTTP and HTTPS through AsyncHTTPClient, which lives in
/// `libHostHTTP.so` and is loaded on the first request.
///
/// AsyncHTTPClient brings SwiftNIO's HTTP/1, HTTP/2, TLS and compression with
/// it. Linked into `host`, they would cost every command about 1.5 ms of
/// start-up, though only `fetch` over http(s) uses them. The library is
/// found beside the running executable, where `swift build` puts it. Like a
/// plugin, it passes the same file checks, is loaded once and never
/// unloaded, and only C crosses to it (`host_http.h`).
///
/// A request cannot be cancelled once started; it ends at its `timeout`.
public struct AsyncHTTPClientNetworking: HostNetworking {
    /// The library's file name.
    public static let libraryName = "libHostHTTP.so"

    /// The most body bytes accepted; a spot price is a few hundred.
    let maximumBodySize: Int
    /// The library to load; nil for the one beside the running executable.
    let libraryPath: String?

    /// Creates networking backed by the process-wide client in `libHostHTTP.so`.
    /// - Parameters:
    ///   - maximumBodySize: Responses larger than this fail.
    ///   - libraryPath: The library to load; by default `libHostHTTP.so`
    ///     beside the running executable. It is loaded once per process:
    ///     if that fails, every request fails with the same one-line reason.
    public init(maximumBodySize: Int = 1 << 20, libraryPath: String? = nil) {
        self.maximumBodySize = maximumBodySize
        self.libraryPath = libraryPath
    }

    /// Performs a GET with `Accept: application/json`. A redirect is not
    /// followed: it is returned as its 3xx response.
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - timeout: The deadline for the whole request, body included.
    /// - Returns: The status and body, whatever the status; or a one-line
    ///   failure such as "timed out after 2 s", "connection refused",
    ///   "response body larger than 1048576 bytes", or why the library could
    ///   not be loaded.
    public func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        await perform(url, timeout: timeout).outcome
    }

    /// Performs one hop of a GET: a 3xx with a `Location` comes back as a
    /// redirect, for the host to check before it asks for the next.
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - timeout: The deadline for this hop, body included.
    /// - Returns: The redirect, or what ``get(_:timeout:)`` would answer.
    public func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
        let answer = await perform(url, timeout: timeout)
        if case .response(let status, _) = answer.outcome, let location = answer.location {
            return .redirect(status: status, location: location)
        }
        return .outcome(answer.outcome)
    }

    private func perform(_ url: URL, timeout: Duration) async -> LibraryAnswer {
        let library: HTTPLibrary
        switch HTTPLibrary.loaded(from: libraryPath ?? HTTPLibrary.besideExecutable) {
        case .success(let loaded): library = loaded
        case .failure(let problem): return LibraryAnswer(outcome: .failure(problem.message))
        }
        return await HTTPRequests.shared.perform(url.absoluteString, timeout: timeout, maximumBodySize: maximumBodySize, with: library)
    }
}

/// What the library answered: the outcome, and a redirect's `Location`.
private struct LibraryAnswer: Sendable {
    var outcome: HTTPOutcome
    var location: String? = nil
}

/// The entry points of a loaded `libHostHTTP.so`.
private struct HTTPLibrary: Sendable {
    let get: host_http_get_fn

    /// Why the library cannot be used, as the line a user sees.
    struct Problem: Error {
        let message: String
    }

    /// `libHostHTTP.so` beside the running executable.
    static let besideExecutable = FilePaths.join(PluginDiscovery.runningExecutableDirectory, AsyncHTTPClientNetworking.libraryName)

    /// What loading each path gave. A path is loaded once per process, and a
    /// failure is kept too: retrying on every request would repeat the same
    /// line at the same cost.
    private static let cache = Mutex<[String: Result<HTTPLibrary, Problem>]>([:])

    /// The library at `path`, loaded on first use and checked before any call.
    static func loaded(from path: String) -> Result<HTTPLibrary, Problem> {
        if let known = cache.withLock({ $0[path] }) { return known }
        // Loaded outside the lock: a first request must not hold up others
        // while dlopen runs. Two racing loads get the same handle back.
        let result = Result { () throws(Problem) in try load(path) }
        return cache.withLock { cache in
            if let known = cache[path] { return known }
            cache[path] = result
            return result
        }
    }

    /// Opens `path` with the checks a plugin file gets (a truncated file is
    /// refused rather than crashing dlopen), then checks the ABI version.
    private static func load(_ path: String) throws(Problem) -> HTTPLibrary {
        let library: DynamicLibrary
        do {
            let file = try PluginFile.open(path, rules: TrustRules(currentUser: UInt32(geteuid())))
            library = try DynamicLibrary.open(file.loadPath)
        } catch {
            if case .notALibrary(let reason) = error.kind {
                throw Problem(message: "cannot load \(path), the host's HTTP client (\(reason)); build it with `swift build`")
            }
            throw Problem(message: "cannot load \(path), the host's HTTP client: \(error)")
        }
        func entry(_ name: String) throws(Problem) -> UnsafeMutableRawPointer {
            guard let symbol = library.symbol(named: name) else {
                throw Problem(message: "\(path) is not the host's HTTP client: it lacks \(name); rebuild it with `swift build`")
            }
            return symbol
        }
        let version = unsafeBitCast(try entry("host_http_abi_version"), to: host_http_abi_version_fn.self)()
        let get = unsafeBitCast(try entry("host_http_get"), to: host_http_get_fn.self)
        guard version == HOST_HTTP_ABI_VERSION else {
            throw Problem(
                message: "\(path) has HTTP ABI version \(version) but this host needs \(HOST_HTTP_ABI_VERSION); rebuild both with `swift build`")
        }
        return HTTPLibrary(get: get)
    }
}

/// The requests waiting for the library to answer.
///
/// The library gets a numeric token as each request's context, never a
/// pointer, so a second or a late answer finds no entry and is ignored. A
/// host-side deadline, a little after the library's own, answers a request
/// the library never answers.
private final class HTTPRequests: Sendable {
    static let shared = HTTPRequests()

    private struct State {
        var next: UInt = 1
        var waiting: [UInt: CheckedContinuation<LibraryAnswer, Never>] = [:]
    }

    private let state = Mutex(State())

    /// How much longer than the request's own deadline the host waits.
    private static let grace = Duration.seconds(2)

    func perform(_ url: String, timeout: Duration, maximumBodySize: Int, with library: HTTPLibrary) async -> LibraryAnswer {
        let milliseconds = max(timeout.clampedMilliseconds, 1)
        let maximumBodyBytes = UInt64(max(maximumBodySize, 0))
        var deadline: Task<Void, Never>?
        let outcome = await withCheckedContinuation { continuation in
            let token = state.withLock { state in
                let token = state.next
                state.next += 1
                state.waiting[token] = continuation
                return token
            }
            deadline = Task {
                try? await Task.sleep(for: timeout + Self.grace)
                self.answer(token, with: LibraryAnswer(outcome: .failure("the HTTP client did not answer within \((timeout + Self.grace).humanReadable)")))
            }
            url.withCString { url in
                library.get(url, milliseconds, maximumBodyBytes, Self.completion, UnsafeMutableRawPointer(bitPattern: token))
            }
        }
        deadline?.cancel()
        return outcome
    }

    /// Resumes the request `token` once; later answers find nothing.
    func answer(_ token: UInt, with answer: LibraryAnswer) {
        state.withLock { $0.waiting.removeValue(forKey: token) }?.resume(returning: answer)
    }

    /// The completion handed to the library, with the token as its context.
    private static let completion: host_http_completion_fn = { context, response in
        let token = UInt(bitPattern: context)
        shared.answer(token, with: response.map { LibraryAnswer($0) } ?? LibraryAnswer(outcome: .failure("the HTTP client answered without a response")))
    }
}

extension LibraryAnswer {
    /// Copies a response that is valid only during its completion call.
    init(_ pointer: UnsafePointer<host_http_response>) {
        // Fields past the sender's `struct_size` are not there to read.
        guard pointer.pointee.struct_size >= MemoryLayout<host_http_response>.size else {
            self.init(outcome: .failure("the HTTP client answered with a \(pointer.pointee.struct_size)-byte response; rebuild it with `swift build`"))
            return
        }
        let response = pointer.pointee
        if let error = response.error {
            self.init(outcome: .failure(String(cString: error)))
        } else {
            let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
            self.init(outcome: .response(status: Int(response.status), body: body), location: response.location.map { String(cString: $0) })
        }
    }
}
