import FoundationEssentials

/// A message from the host to a plugin worker; see ``Frame`` for how it travels.
enum HostToWorker: Codable, Sendable {
    /// Load the plugin on descriptor 5. Sent once, first.
    case load(LoadRequest)
    /// Fetch a price; answered with ``WorkerToHost/fetched(_:)``.
    case fetch(FetchRequest)
    /// The answer to ``WorkerToHost/httpGet(_:)``.
    case httpResponse(HTTPResponseFrame)
}

/// A message from a plugin worker to the host.
enum WorkerToHost: Codable, Sendable {
    /// The sandbox the worker confined itself with. Sent once, first, before
    /// the plugin is loaded: the host takes no other.
    case sandboxed(SandboxReport)
    /// The outcome of ``HostToWorker/load(_:)``.
    case loaded(LoadReply)
    /// A log line from the plugin or the worker.
    case log(LogFrame)
    /// The plugin called `http_get`; the host performs it and answers.
    case httpGet(HTTPRequestFrame)
    /// The outcome of ``HostToWorker/fetch(_:)``.
    case fetched(FetchReply)
    /// What the worker counted that the host cannot see: sent before a
    /// `loaded` or `fetched` reply whenever it changed.
    case tally(WorkerTally)
}

/// What a worker counted: the first system call its filter refused, and the
/// log lines its plugin wrote past the cap, which the worker dropped rather
/// than send. Its plugin can forge it: the host only words it.
struct WorkerTally: Codable, Sendable, Equatable {
    /// The number of the first refused system call, if any.
    let refusedSystemCall: UInt32?
    /// Log lines dropped so far in the worker.
    let droppedLogLines: Int
}

/// Everything a worker needs to load its plugin as the host would.
struct LoadRequest: Codable, Sendable {
    /// The plugin file as the host found it, for reports and messages.
    let path: String
    /// The values `config_value` returns.
    let configuration: [String: String]
    /// The HTTP timeout for a plugin that asks for 0, in milliseconds.
    let defaultTimeoutMilliseconds: Int64
    /// The least severe log level worth sending back.
    let logLevel: String
    /// Symbols earlier plugins own, with the owner's path, so that
    /// `register_fetcher` answers `PB_ERR_DUPLICATE` exactly as in-process.
    let claims: [String: String]
}

/// The worker's report, and the fetchers its plugin registered.
struct LoadReply: Codable, Sendable {
    let report: PluginReport
    let fetchers: [Fetcher]

    struct Fetcher: Codable, Sendable {
        let symbol: String
        let displayName: String
    }
}

struct LogFrame: Codable, Sendable {
    /// A `Logger.Level` raw value, e.g. "warning".
    let level: String
    let message: String
    /// The plugin's name when the plugin logged it.
    let plugin: String?
}

struct HTTPRequestFrame: Codable, Sendable {
    let id: UInt64
    let url: String
    let timeoutMilliseconds: Int64
}

struct HTTPResponseFrame: Codable, Sendable {
    let id: UInt64
    /// Set when a response arrived.
    let status: Int?
    let body: Data?
    /// Set when none did.
    let error: String?

    init(id: UInt64, _ outcome: HTTPOutcome) {
        self.id = id
        switch outcome {
        case .response(let status, let body):
            (self.status, self.body, self.error) = (status, Data(body), nil)
        case .failure(let reason):
            (self.status, self.body, self.error) = (nil, nil, reason)
        }
    }

    var outcome: HTTPOutcome {
        if let status { return .response(status: status, body: Array(body ?? Data())) }
        return .failure(error ?? "no response")
    }
}

struct FetchRequest: Codable, Sendable {
    let id: UInt64
    let symbol: String
    let currency: String
    let timeoutMilliseconds: Int64
}

struct FetchReply: Codable, Sendable {
    let id: UInt64
    /// Set on success.
    let quote: QuoteFrame?
    /// Set on failure: the message the user sees.
    let error: String?

    struct QuoteFrame: Codable, Sendable {
        let base: String
        let currency: String
        let amount: String
    }
}
