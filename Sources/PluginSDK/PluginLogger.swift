internal import PluginABI

/// Writes lines to the host's log, attributed to the plugin.
///
/// ```swift
/// services.logger.warning("Coinbase sent a warning: \(message)")
/// ```
///
/// Each message is sent as one line: line breaks in it become spaces.
public struct PluginLogger: Sendable {
    /// How severe a message is.
    public enum Level: Sendable, Hashable, CaseIterable {
        /// Detail for whoever debugs the plugin.
        case debug
        /// Normal progress worth recording.
        case info
        /// Something unexpected that the plugin worked around.
        case warning
        /// Something failed.
        case error
    }

    private let host: HostServicesClient

    init(host: HostServicesClient) {
        self.host = host
    }

    /// Writes `message` at `level`.
    ///
    /// - Parameters:
    ///   - level: The message's severity.
    ///   - message: The text; line breaks become spaces.
    public func log(_ level: Level, _ message: String) {
        host.log(level.abiLevel, message)
    }

    /// Writes `message` at ``Level/debug``.
    ///
    /// - Parameter message: The text.
    public func debug(_ message: String) { log(.debug, message) }

    /// Writes `message` at ``Level/info``.
    ///
    /// - Parameter message: The text.
    public func info(_ message: String) { log(.info, message) }

    /// Writes `message` at ``Level/warning``.
    ///
    /// - Parameter message: The text.
    public func warning(_ message: String) { log(.warning, message) }

    /// Writes `message` at ``Level/error``.
    ///
    /// - Parameter message: The text.
    public func error(_ message: String) { log(.error, message) }
}

extension PluginLogger.Level {
    var abiLevel: pb_log_level {
        switch self {
        case .debug: PB_LOG_DEBUG
        case .info: PB_LOG_INFO
        case .warning: PB_LOG_WARNING
        case .error: PB_LOG_ERROR
        }
    }
}
