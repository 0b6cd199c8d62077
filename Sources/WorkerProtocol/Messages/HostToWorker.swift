import PluginBoundary

/// A message from the host to a worker; see ``Frame`` for how it travels.
package enum HostToWorker: Sendable, Equatable, FrameCodable {
    /// Load the plugin on descriptor 5. Sent once, after the worker's
    /// ``WorkerToHost/sandboxed(_:)``.
    case load(LoadRequest)
    /// Fetch a price; answered with ``WorkerToHost/fetched(_:)``.
    case fetch(FetchRequest)
    /// The answer to ``WorkerToHost/httpGet(_:)``.
    case httpResponse(HTTPResponseFrame)

    /// A tag byte, then the case's message.
    package func encode(to writer: inout FrameWriter) {
        switch self {
        case .load(let request): writer.write(UInt8(1)); writer.write(request)
        case .fetch(let request): writer.write(UInt8(2)); writer.write(request)
        case .httpResponse(let response): writer.write(UInt8(3)); writer.write(response)
        }
    }

    /// A tag byte, then the case's message.
    package init(from reader: inout FrameReader) throws(FrameError) {
        switch try reader.readByte() {
        case 1: self = .load(try reader.read())
        case 2: self = .fetch(try reader.read())
        case 3: self = .httpResponse(try reader.read())
        case let tag: throw .undecodable(.unknownTag(tag, of: "message to a worker"))
        }
    }
}

/// Everything a worker needs to load its plugin as the host would.
package struct LoadRequest: Sendable, Equatable, FrameCodable {
    /// The plugin file as the host found it, for messages.
    package var path: String
    /// The values `config_value` returns, but `api_base_url`.
    package var configuration: [String: String]
    /// The rule that gives the plugin its `api_base_url`, once the worker
    /// has read its descriptor's name and declared base.
    package var apiBases: APIBases
    /// The HTTP timeout for a plugin that asks for 0, in milliseconds.
    package var defaultTimeoutMilliseconds: UInt32
    /// The least severe log line worth sending back.
    package var logLevel: LogFrame.Level

    /// A request to load the plugin found at `path`.
    package init(
        path: String, configuration: [String: String], apiBases: APIBases = APIBases(), defaultTimeoutMilliseconds: UInt32, logLevel: LogFrame.Level
    ) {
        self.path = path
        self.configuration = configuration
        self.apiBases = apiBases
        self.defaultTimeoutMilliseconds = defaultTimeoutMilliseconds
        self.logLevel = logLevel
    }

    /// The path, the configuration as pairs in ascending key order, the
    /// bases, the timeout, the level.
    package func encode(to writer: inout FrameWriter) {
        writer.write(path)
        writer.writeSorted(configuration)
        writer.writeSorted(apiBases.byPlugin)
        writer.write(apiBases.everyPlugin)
        writer.write(apiBases.fallback)
        writer.write(defaultTimeoutMilliseconds)
        writer.write(logLevel)
    }

    /// Refuses keys out of order: each request has one encoding.
    package init(from reader: inout FrameReader) throws(FrameError) {
        path = try reader.read()
        configuration = try reader.readSorted("configuration keys")
        let byPlugin = try reader.readSorted("plugins' API bases")
        apiBases = APIBases(byPlugin: byPlugin, everyPlugin: try reader.readOptional(), fallback: try reader.read())
        defaultTimeoutMilliseconds = try reader.read()
        logLevel = try reader.read()
    }
}

extension FrameWriter {
    /// A count, then each key and value in ascending key order.
    mutating func writeSorted(_ pairs: [String: String]) {
        let sorted = pairs.sorted { $0.key < $1.key }
        write(UInt32(truncatingIfNeeded: sorted.count))
        for (key, value) in sorted {
            write(key)
            write(value)
        }
    }
}

extension FrameReader {
    /// What ``FrameWriter/writeSorted(_:)`` wrote; keys out of order are
    /// refused, so each dictionary has one encoding.
    /// - Parameter what: What the keys are, for the error.
    mutating func readSorted(_ what: String) throws(FrameError) -> [String: String] {
        let count = Int(try readUInt32())
        guard count <= remaining else { throw .undecodable(.truncated) }
        var pairs: [String: String] = [:]
        var previous: String?
        for _ in 0..<count {
            let key: String = try read()
            if let previous, !(previous < key) { throw .undecodable(.unordered(what)) }
            previous = key
            pairs[key] = try read()
        }
        return pairs
    }
}

/// A request for one price.
package struct FetchRequest: Sendable, Equatable, FrameCodable {
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
    package func encode(to writer: inout FrameWriter) {
        writer.write(id)
        writer.write(symbol)
        writer.write(currency)
        writer.write(timeoutMilliseconds)
    }

    /// The fields in order.
    package init(from reader: inout FrameReader) throws(FrameError) {
        id = try reader.read()
        symbol = try reader.read()
        currency = try reader.read()
        timeoutMilliseconds = try reader.read()
    }
}

/// The host's answer to a worker's ``HTTPRequestFrame``.
package struct HTTPResponseFrame: Sendable, Equatable, FrameCodable {
    /// The request's number.
    package var id: UInt64
    /// What the plugin's completion gets.
    package var outcome: Outcome

    /// A response, or why none arrived.
    package enum Outcome: Sendable, Equatable {
        /// A response arrived, whatever its status.
        case response(status: Int64, body: [UInt8])
        /// None arrived; one line saying why.
        case failure(String)
    }

    /// The answer to request `id`.
    package init(id: UInt64, outcome: Outcome) {
        self.id = id
        self.outcome = outcome
    }

    /// The number, a tag, then the status and body or the reason.
    package func encode(to writer: inout FrameWriter) {
        writer.write(id)
        switch outcome {
        case .response(let status, let body):
            writer.write(UInt8(1))
            writer.write(status)
            writer.write(bytes: body)
        case .failure(let reason):
            writer.write(UInt8(2))
            writer.write(reason)
        }
    }

    /// The number, a tag, then the status and body or the reason.
    package init(from reader: inout FrameReader) throws(FrameError) {
        id = try reader.read()
        switch try reader.readByte() {
        case 1: outcome = .response(status: try reader.read(), body: try reader.readBytes())
        case 2: outcome = .failure(try reader.read())
        case let tag: throw .undecodable(.unknownTag(tag, of: "HTTP outcome"))
        }
    }
}
