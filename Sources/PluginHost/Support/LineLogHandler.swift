import Logging

/// A log handler that hands each message on as the parts of one line: its
/// level, its text, and the plugin that logged it (the `plugin` metadata).
///
/// The CLI writes those parts to stderr; an isolated worker sends them to
/// its host, which logs them with its own handler.
package struct LineLogHandler: LogHandler {
    /// Receives one message.
    package typealias Emit = @Sendable (_ level: Logger.Level, _ message: String, _ plugin: String?) -> Void

    /// The lowest level handed on.
    package var logLevel: Logger.Level
    /// Metadata set on the logger; a message's own metadata wins over it.
    package var metadata: Logger.Metadata = [:]
    private let emit: Emit

    /// Creates a handler.
    /// - Parameters:
    ///   - logLevel: The lowest level handed on.
    ///   - emit: Receives each message's level, text and plugin name.
    package init(logLevel: Logger.Level, emit: @escaping Emit) {
        self.logLevel = logLevel
        self.emit = emit
    }

    /// One metadata value of the logger.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Hands the message on.
    package func log(event: LogEvent) {
        let plugin = event.metadata?["plugin"] ?? metadata["plugin"]
        emit(event.level, "\(event.message)", plugin.map { "\($0)" })
    }
}
