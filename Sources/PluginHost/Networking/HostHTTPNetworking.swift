import FoundationEssentials
import HostHTTPABI
import HostShared
import PluginBoundary
import Logging
import Synchronization

import Glibc

/// Real HTTP and HTTPS through `libHostHTTP.so`, the host's HTTP client
/// library (AsyncHTTPClient inside), loaded with dlopen on the first request.
///
/// AsyncHTTPClient brings SwiftNIO's HTTP/1, HTTP/2, TLS and compression with
/// it. Linked into `host`, they would cost every command about 1.5 ms of
/// start-up, though only `fetch` over http(s) uses them. The library is
/// found beside the running executable, where `swift build` puts it. Like a
/// plugin, it passes the same file checks, is loaded once and never
/// unloaded, and only C crosses to it (`host_http.h`).
///
/// A request cannot be cancelled once started; it ends at its `timeout`.
package struct HostHTTPNetworking: HostNetworking {
    /// The library's file name.
    package static let libraryName = "libHostHTTP.so"

    /// The most body bytes accepted; a spot price is a few hundred.
    let maximumBodySize: Int
    /// The library to load; nil for the one beside the running executable.
    let libraryPath: String?
    /// Trust roots, proxies, and the advice after a refused certificate.
    let settings: NetworkSettings
    /// Where each request's proxy decision is logged, at debug level.
    let logger: Logger?
    /// How much longer than a request's own deadline the host waits for the
    /// library to answer before it answers for it.
    let grace: Duration

    /// Creates networking backed by the process-wide clients in `libHostHTTP.so`.
    /// - Parameters:
    ///   - maximumBodySize: Responses larger than this fail.
    ///   - libraryPath: The library to load; by default `libHostHTTP.so`
    ///     beside the running executable. It is loaded once per process:
    ///     if that fails, every request fails with the same one-line reason.
    ///   - settings: The trust roots and proxies; by default the system's
    ///     roots and no proxy.
    ///   - logger: Receives, at debug level, whether each request goes
    ///     through a proxy and why.
    ///   - grace: How long after a request's deadline the host stops
    ///     waiting for a library that never answers, and answers "the HTTP
    ///     client did not answer" itself.
    package init(
        maximumBodySize: Int = 1 << 20, libraryPath: String? = nil, settings: NetworkSettings = NetworkSettings(), logger: Logger? = nil,
        grace: Duration = .seconds(2)
    ) {
        self.maximumBodySize = maximumBodySize
        self.libraryPath = libraryPath
        self.settings = settings
        self.logger = logger
        self.grace = grace
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
    package func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        await perform(url, timeout: timeout).outcome(advice: settings.advice, for: url)
    }

    /// Performs one hop of a GET: a 3xx with a `Location` comes back as a
    /// redirect, for the host to check before it asks for the next; a 429,
    /// a 5xx or a dropped connection as transient, with the delay its
    /// `Retry-After` asks for.
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - timeout: The deadline for this hop, body included.
    /// - Returns: The redirect, the transient answer, or what
    ///   ``get(_:timeout:)`` would answer.
    package func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
        let answer = await perform(url, timeout: timeout)
        let outcome = answer.outcome(advice: settings.advice, for: url)
        switch answer.reply {
        case .response(let status, _) where (300..<400).contains(status) && answer.location != nil:
            return .redirect(status: status, location: answer.location ?? "")
        case .response(let status, _) where status == 429 || (500..<600).contains(status):
            let now = Date().timeIntervalSince1970
            return .transient(outcome, retryAfter: answer.retryAfter.flatMap { RetryAfter.delay($0, now: now) })
        case .failure(_, let kind) where kind == Int32(HOST_HTTP_FAILURE_CONNECTION_RESET):
            return .transient(outcome, retryAfter: nil)
        default:
            return .outcome(outcome)
        }
    }

    private func perform(_ url: URL, timeout: Duration) async -> HostHTTPAnswer {
        let library: HTTPLibrary
        switch HTTPLibrary.loaded(from: libraryPath ?? HTTPLibrary.besideExecutable) {
        case .success(let loaded): library = loaded
        case .failure(let problem): return .failure(problem.message, kind: Int32(HOST_HTTP_FAILURE_OTHER))
        }
        let proxy: ProxyServer?
        switch settings.proxy.decision(for: url) {
        case .direct(let reason):
            logger?.debug("GET \(url.absoluteString) directly: \(reason)")
            proxy = nil
        case .through(let server):
            logger?.debug("GET \(url.absoluteString) through the proxy \(server) (from \(server.source))")
            proxy = server
        }
        let request = LibraryRequest(
            url: url.absoluteString, timeout: timeout, maximumBodySize: maximumBodySize, proxy: proxy, trust: settings.trust)
        return await HTTPRequests.shared.perform(request, with: library, grace: grace)
    }
}

/// One request, as Swift values until it is handed to the library.
private struct LibraryRequest: Sendable {
    let url: String
    let timeout: Duration
    let maximumBodySize: Int
    let proxy: ProxyServer?
    let trust: TrustSettings

    /// Calls `body` with a `host_http_request` whose pointers live only for the call.
    func withCRequest<T>(_ body: (UnsafePointer<host_http_request>) -> T) -> T {
        let strings = [url, proxy?.host, proxy?.username, proxy?.password] + trust.caPaths.map(Optional.some)
        let copies = strings.map { $0.map { strdup($0) } }
        defer { copies.forEach { free($0 ?? nil) } }
        let paths = copies.dropFirst(4).map { UnsafePointer($0 ?? nil) }
        return paths.withUnsafeBufferPointer { paths in
            var request = host_http_request(
                struct_size: UInt32(MemoryLayout<host_http_request>.size),
                timeout_ms: timeout.timeoutMilliseconds,
                url: UnsafePointer(copies[0] ?? nil),
                max_body_bytes: UInt64(max(maximumBodySize, 0)),
                proxy_host: UnsafePointer(copies[1] ?? nil),
                proxy_port: UInt16(clamping: proxy?.port ?? 0),
                trust_system_roots: trust.trustsSystemRoots ? 1 : 0,
                proxy_username: UnsafePointer(copies[2] ?? nil),
                proxy_password: UnsafePointer(copies[3] ?? nil),
                ca_paths: paths.isEmpty ? nil : paths.baseAddress,
                ca_path_count: paths.count)
            return body(&request)
        }
    }
}

extension HostHTTPAnswer {
    /// The outcome a plugin sees: a refused certificate, or a server out of reach, gets its fix.
    /// - Parameters:
    ///   - advice: The fixes.
    ///   - url: The URL asked for, whose offline fixtures an unreachable server's fix names.
    func outcome(advice: NetworkAdvice, for url: URL? = nil) -> HTTPOutcome {
        switch reply {
        case .response(let status, let body):
            return .response(status: status, body: body)
        case .failure(let reason, let kind):
            switch kind {
            case Int32(HOST_HTTP_FAILURE_CERTIFICATE_UNTRUSTED): return .failure("\(reason); \(advice.untrusted)")
            case Int32(HOST_HTTP_FAILURE_CERTIFICATE_WRONG_NAME): return .failure("\(reason); \(advice.wrongName)")
            case Int32(HOST_HTTP_FAILURE_CERTIFICATE_EXPIRED), Int32(HOST_HTTP_FAILURE_CERTIFICATE_NOT_YET_VALID):
                return .failure("\(reason); \(advice.outOfDate)")
            case Int32(HOST_HTTP_FAILURE_UNREACHABLE): return .failure("\(reason); \(advice.unreachable(url))")
            default: return .failure(reason)
            }
        }
    }
}

/// The entry points of a loaded `libHostHTTP.so`.
private struct HTTPLibrary: Sendable {
    let get: host_http_get_fn

    /// Why the library cannot be used, as the line a user sees.
    struct LoadError: Error {
        let message: String
    }

    /// `libHostHTTP.so` where the running host's layout keeps it.
    static let besideExecutable = InstalledLayout.running.httpLibrary

    /// What loading each path gave. A path is loaded once per process, and a
    /// failure is kept too: retrying on every request would repeat the same
    /// line at the same cost.
    private static let cache = Mutex<[String: Result<HTTPLibrary, LoadError>]>([:])

    /// The library at `path`, loaded on first use and checked before any call.
    static func loaded(from path: String) -> Result<HTTPLibrary, LoadError> {
        if let known = cache.withLock({ $0[path] }) { return known }
        // Loaded outside the lock: a first request must not hold up others
        // while dlopen runs. Two racing loads get the same handle back.
        let result = Result { () throws(LoadError) in try load(path) }
        return cache.withLock { cache in
            if let known = cache[path] { return known }
            cache[path] = result
            return result
        }
    }

    /// Opens `path` with the checks a plugin file gets (a truncated file is
    /// refused rather than crashing dlopen), then checks the ABI version.
    private static func load(_ path: String) throws(LoadError) -> HTTPLibrary {
        let library: DynamicLibrary
        do throws(PluginLoadError) {
            let file = try PluginFile.open(path, rules: TrustRules(currentUser: UInt32(geteuid())))
            do throws(PluginImageError) {
                library = try DynamicLibrary.open(file.loadPath)
            } catch {
                throw PluginLoadError(image: error)
            }
        } catch {
            if let reason = error.libraryProblem {
                throw LoadError(message: "cannot load \(path), the host's HTTP client (\(reason)); \(InstalledLayout.running.restoreAdvice("it"))")
            }
            throw LoadError(message: "cannot load \(path), the host's HTTP client: \(error)")
        }
        func entry(_ name: String) throws(LoadError) -> UnsafeMutableRawPointer {
            guard let symbol = library.symbol(named: name) else {
                throw LoadError(message: "\(path) is not the host's HTTP client: it lacks \(name); \(InstalledLayout.running.restoreAdvice("it"))")
            }
            return symbol
        }
        let version = unsafeBitCast(try entry("host_http_abi_version"), to: host_http_abi_version_fn.self)()
        let get = unsafeBitCast(try entry("host_http_get"), to: host_http_get_fn.self)
        guard version == HOST_HTTP_ABI_VERSION else {
            throw LoadError(
                message: "\(path) has HTTP ABI version \(version) but this host needs \(HOST_HTTP_ABI_VERSION); \(InstalledLayout.running.restoreAdvice("both"))")
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
        var waiting: [UInt: CheckedContinuation<HostHTTPAnswer, Never>] = [:]
    }

    private let state = Mutex(State())

    func perform(_ request: LibraryRequest, with library: HTTPLibrary, grace: Duration) async -> HostHTTPAnswer {
        let timeout = request.timeout
        var deadline: Task<Void, Never>?
        let outcome = await withCheckedContinuation { continuation in
            let token = state.withLock { state in
                let token = state.next
                state.next += 1
                state.waiting[token] = continuation
                return token
            }
            deadline = Task {
                try? await Task.sleep(for: timeout + grace)
                let reason = "the HTTP client did not answer within \((timeout + grace).humanReadable)"
                self.answer(token, with: .failure(reason, kind: Int32(HOST_HTTP_FAILURE_TIMEOUT)))
            }
            request.withCRequest { request in
                library.get(request, Self.completion, UnsafeMutableRawPointer(bitPattern: token))
            }
        }
        deadline?.cancel()
        return outcome
    }

    /// Resumes the request `token` once; later answers find nothing.
    func answer(_ token: UInt, with answer: HostHTTPAnswer) {
        state.withLock { $0.waiting.removeValue(forKey: token) }?.resume(returning: answer)
    }

    /// The completion handed to the library, with the token as its context.
    private static let completion: host_http_completion_fn = { context, response in
        let token = UInt(bitPattern: context)
        shared.answer(token, with: HostHTTPAnswer(reading: response))
    }
}
