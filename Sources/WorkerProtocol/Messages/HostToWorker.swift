import PluginBoundary

/// A message from the host to a worker; see ``Frame`` for how it travels.
package enum HostToWorker: Sendable, Equatable, FrameRecord {
    /// Load the plugin on descriptor 5. Sent once, after the worker's
    /// ``WorkerToHost/sandboxed(_:)``.
    case load(LoadRequest)
    /// Fetch a price; answered with ``WorkerToHost/fetched(_:)``.
    case fetch(FetchRequest)
    /// The answer to ``WorkerToHost/httpGet(_:)``.
    case httpResponse(HTTPResponseFrame)

    /// A tag byte, then the case's message.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        try fields.variant(1, Self.load) { if case .load(let request) = $0 { request } else { nil } }
        try fields.variant(2, Self.fetch) { if case .fetch(let request) = $0 { request } else { nil } }
        try fields.variant(3, Self.httpResponse) { if case .httpResponse(let response) = $0 { response } else { nil } }
        return try fields.end("message to a worker")
    }
}

/// Everything a worker needs to load its plugin as the host would.
package struct LoadRequest: Sendable, Equatable, FrameRecord {
    /// The plugin file as the host found it, for messages.
    package var path: String
    /// The values `config_value` returns, but `api_base_url`.
    package var configuration: [String: String]
    /// The rule that gives the plugin its `api_base_url`, once the worker
    /// has read its descriptor's name and declared base.
    package var apiBases: APIBases
    /// The HTTP timeout for a plugin that asks for 0, in milliseconds.
    package var defaultTimeoutMilliseconds: UInt32
    /// The least severe of its plugin's own log lines worth sending back;
    /// nil for none (the user did not ask for them with `-v`). The worker's
    /// own warnings about its plugin go back whatever this says.
    package var logLevel: LogFrame.Level?

    /// A request to load the plugin found at `path`.
    package init(
        path: String, configuration: [String: String], apiBases: APIBases = APIBases(), defaultTimeoutMilliseconds: UInt32, logLevel: LogFrame.Level?
    ) {
        self.path = path
        self.configuration = configuration
        self.apiBases = apiBases
        self.defaultTimeoutMilliseconds = defaultTimeoutMilliseconds
        self.logLevel = logLevel
    }

    /// The path, the configuration as pairs in ascending key order, the
    /// bases, the timeout, the level. Keys out of order are refused: each
    /// request has one encoding.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(
            path: try fields.field(\.path), configuration: try fields.sorted(\.configuration, "configuration keys"),
            apiBases: APIBases(
                byPlugin: try fields.sorted(\.apiBases.byPlugin, "plugins' API bases"), everyPlugin: try fields.field(\.apiBases.everyPlugin),
                fallback: try fields.field(\.apiBases.fallback)),
            defaultTimeoutMilliseconds: try fields.field(\.defaultTimeoutMilliseconds), logLevel: try fields.field(\.logLevel))
    }
}

/// A request for one price.
package struct FetchRequest: Sendable, Equatable, FrameRecord {
    /// The host's number for this fetch, echoed in the reply.
    package var id: UInt64
    /// The symbol, as the worker's plugin registered it.
    package var symbol: String
    /// The quote currency, e.g. "USD".
    package var currency: String
    /// The plugin's `timeout_ms`; the host enforces the limit itself.
    package var timeoutMilliseconds: UInt32

    /// A request for `symbol` in `currency`.
    package init(id: UInt64, symbol: String, currency: String, timeoutMilliseconds: UInt32) {
        self.id = id
        self.symbol = symbol
        self.currency = currency
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The fields in order.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(
            id: try fields.field(\.id), symbol: try fields.field(\.symbol), currency: try fields.field(\.currency),
            timeoutMilliseconds: try fields.field(\.timeoutMilliseconds))
    }
}

/// The host's answer to a worker's ``HTTPRequestFrame``.
package struct HTTPResponseFrame: Sendable, Equatable, FrameRecord {
    /// The request's number.
    package var id: UInt64
    /// What the plugin's completion gets.
    package var outcome: Outcome

    /// A response, or why none arrived.
    package enum Outcome: Sendable, Equatable, FrameRecord {
        /// A response arrived, whatever its status.
        case response(status: Int64, body: [UInt8])
        /// None arrived; one line saying why.
        case failure(String)

        /// A tag, then the status and body or the reason.
        package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
            try fields.variant(1, Self.response) { if case .response(let status, let body) = $0 { (status, body) } else { nil } }
            try fields.variant(2, Self.failure) { if case .failure(let reason) = $0 { reason } else { nil } }
            return try fields.end("HTTP outcome")
        }
    }

    /// The answer to request `id`.
    package init(id: UInt64, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    /// The number, then the outcome.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(id: try fields.field(\.id), outcome: try fields.field(\.outcome))
    }
}
