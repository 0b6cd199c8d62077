import PluginBoundary

/// A message from a worker to the host; see ``Frame`` for how it travels.
///
/// Everything but the first frame may come from the plugin itself, which
/// can write to the worker's pipe: the host checks every field as it
/// checks what an in-process plugin passes.
package enum WorkerToHost: Sendable, Equatable, FrameCodable {
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
    package func encode(to writer: inout FrameWriter) {
        switch self {
        case .sandboxed(let report): writer.write(UInt8(1)); writer.write(report)
        case .loaded(let reply): writer.write(UInt8(2)); writer.write(reply)
        case .log(let line): writer.write(UInt8(3)); writer.write(line)
        case .httpGet(let request): writer.write(UInt8(4)); writer.write(request)
        case .fetched(let reply): writer.write(UInt8(5)); writer.write(reply)
        case .refusedSystemCall(let number): writer.write(UInt8(6)); writer.write(number)
        }
    }

    /// A tag byte, then the case's message.
    package init(from reader: inout FrameReader) throws(FrameError) {
        switch try reader.readByte() {
        case 1: self = .sandboxed(try reader.read())
        case 2: self = .loaded(try reader.read())
        case 3: self = .log(try reader.read())
        case 4: self = .httpGet(try reader.read())
        case 5: self = .fetched(try reader.read())
        case 6: self = .refusedSystemCall(try reader.readUInt32())
        case let tag: throw .undecodable(.unknownTag(tag, of: "message from a worker"))
        }
    }
}

/// A log line.
package struct LogFrame: Sendable, Equatable, FrameCodable {
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
    package func encode(to writer: inout FrameWriter) {
        writer.write(level)
        writer.write(message)
    }

    /// The level, then the text.
    package init(from reader: inout FrameReader) throws(FrameError) {
        level = try reader.read()
        message = try reader.read()
    }
}

/// A plugin's `http_get`, for the host to perform.
package struct HTTPRequestFrame: Sendable, Equatable, FrameCodable {
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
    package func encode(to writer: inout FrameWriter) {
        writer.write(id)
        writer.write(url)
        writer.write(timeoutMilliseconds)
    }

    /// The fields in order.
    package init(from reader: inout FrameReader) throws(FrameError) {
        id = try reader.read()
        url = try reader.read()
        timeoutMilliseconds = try reader.read()
    }
}

/// What one fetch of the worker's plugin produced.
package struct FetchReply: Sendable, Equatable, FrameCodable {
    /// The host's number for the fetch.
    package var id: UInt64
    /// The plugin's answer, or why there is none.
    package var outcome: Outcome

    /// The plugin's answer, or why it was not asked.
    package enum Outcome: Sendable, Equatable, FrameCodable {
        /// The plugin answered; not yet checked as a quote.
        case called(FetchCallOutcome)
        /// The plugin registered no fetcher for the symbol.
        case noSuchFetcher
        /// No thread could be had to call the plugin.
        case notCalled(SystemError)

        /// A tag byte, then the case's fields.
        package func encode(to writer: inout FrameWriter) {
            switch self {
            case .called(let outcome): writer.write(UInt8(1)); writer.write(outcome)
            case .noSuchFetcher: writer.write(UInt8(2))
            case .notCalled(let error): writer.write(UInt8(3)); writer.write(error.code)
            }
        }

        /// A tag byte, then the case's fields.
        package init(from reader: inout FrameReader) throws(FrameError) {
            switch try reader.readByte() {
            case 1: self = .called(try reader.read())
            case 2: self = .noSuchFetcher
            // Only the errno crosses: the words are the host's.
            case 3: self = .notCalled(PluginCallThread.startError(try reader.read()))
            case let tag: throw .undecodable(.unknownTag(tag, of: "fetch outcome"))
            }
        }
    }

    /// The reply to fetch `id`.
    package init(id: UInt64, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    /// The number, then the outcome.
    package func encode(to writer: inout FrameWriter) {
        writer.write(id)
        writer.write(outcome)
    }

    /// The number, then the outcome.
    package init(from reader: inout FrameReader) throws(FrameError) {
        id = try reader.read()
        outcome = try reader.read()
    }
}
