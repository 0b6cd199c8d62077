import PluginBoundary

/// A message from a worker to the host; see ``Frame`` for how it travels.
///
/// Everything but the first frame may come from the plugin itself, which
/// can write to the worker's pipe: the host checks every field as it
/// checks what an in-process plugin passes.
package enum WorkerToHost: Sendable, Equatable, FrameRecord {
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
    /// The number of the first system call the worker's filter refused, sent
    /// once, before the `loaded` or `fetched` reply that followed it. Its
    /// plugin can forge it: the host only names it.
    case refusedSystemCall(UInt32)

    /// A tag byte, then the case's message.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        try fields.variant(1, Self.sandboxed) { if case .sandboxed(let report) = $0 { report } else { nil } }
        try fields.variant(2, Self.loaded) { if case .loaded(let reply) = $0 { reply } else { nil } }
        try fields.variant(3, Self.log) { if case .log(let line) = $0 { line } else { nil } }
        try fields.variant(4, Self.httpGet) { if case .httpGet(let request) = $0 { request } else { nil } }
        try fields.variant(5, Self.fetched) { if case .fetched(let reply) = $0 { reply } else { nil } }
        try fields.variant(6, Self.refusedSystemCall) { if case .refusedSystemCall(let number) = $0 { number } else { nil } }
        return try fields.end("message from a worker")
    }
}

/// A log line.
package struct LogFrame: Sendable, Equatable, FrameRecord {
    /// How severe a line is, from the plugin's `pb_log_level` or the worker's own.
    package enum Level: UInt8, Sendable, Comparable, FrameCodable {
        /// `PB_LOG_DEBUG`, and what `-v` shows.
        case debug = 0
        /// `PB_LOG_INFO`.
        case info = 1
        /// `PB_LOG_WARNING`, and the worker's own warnings.
        case warning = 2
        /// `PB_LOG_ERROR`: the last one is a failed registration's reason.
        case error = 3

        /// By severity.
        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// One byte.
        package func encode(to writer: inout FrameWriter) { writer.write(rawValue) }

        /// One byte naming a level.
        package init(from reader: inout FrameReader) throws(FrameError) {
            let byte = try reader.readByte()
            guard let level = Level(rawValue: byte) else { throw .undecodable(.unknownTag(byte, of: "log level")) }
            self = level
        }
    }

    /// How severe it is.
    package var level: Level
    /// The line, as the plugin or the worker wrote it.
    package var message: String

    /// A line at `level`.
    package init(level: Level, message: String) {
        self.level = level
        self.message = message
    }

    /// The level, then the text.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(level: try fields.field(\.level), message: try fields.field(\.message))
    }
}

/// A plugin's `http_get`, for the host to perform.
package struct HTTPRequestFrame: Sendable, Equatable, FrameRecord {
    /// The worker's number for it, echoed in the ``HTTPResponseFrame``.
    package var id: UInt64
    /// The URL as the plugin wrote it.
    package var url: String
    /// The limit for the whole request.
    package var timeoutMilliseconds: UInt32

    /// A request for `url`.
    package init(id: UInt64, url: String, timeoutMilliseconds: UInt32) {
        self.id = id
        self.url = url
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The fields in order.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(id: try fields.field(\.id), url: try fields.field(\.url), timeoutMilliseconds: try fields.field(\.timeoutMilliseconds))
    }
}

/// What one fetch of the worker's plugin produced.
package struct FetchReply: Sendable, Equatable, FrameRecord {
    /// The host's number for the fetch.
    package var id: UInt64
    /// The plugin's answer, or why there is none.
    package var outcome: Outcome

    /// The plugin's answer, or why it was not asked.
    package enum Outcome: Sendable, Equatable, FrameRecord {
        /// The plugin answered; not yet checked as a quote.
        case called(FetchCallOutcome)
        /// The plugin registered no fetcher for the symbol.
        case noSuchFetcher
        /// No thread could be had to call the plugin.
        case notCalled(SystemError)

        /// A tag byte, then the case's fields. Only the errno of
        /// `notCalled` crosses: the words are the host's.
        package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
            try fields.variant(1, Self.called) { if case .called(let outcome) = $0 { outcome } else { nil } }
            try fields.variant(2, .noSuchFetcher) { if case .noSuchFetcher = $0 { true } else { false } }
            try fields.variant(3, { .notCalled(PluginCallThread.startError($0)) }) { if case .notCalled(let error) = $0 { error.code } else { nil } }
            return try fields.end("fetch outcome")
        }
    }

    /// The reply to fetch `id`.
    package init(id: UInt64, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    /// The number, then the outcome.
    package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
        Self(id: try fields.field(\.id), outcome: try fields.field(\.outcome))
    }
}
