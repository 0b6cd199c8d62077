import Logging
import PluginHost

/// The CLI's log lines: one plain line per message on stderr,
/// `host: [plugin] warning: …`, with the plugin's name when a plugin logged
/// it. No timestamps: these lines are read by people at a terminal.
enum StderrLog {
    /// A handler that writes messages at `level` and above.
    static func handler(level: Logger.Level) -> LineLogHandler {
        LineLogHandler(logLevel: level) { level, message, plugin in
            // Plugins write much of what is logged, in their name or through the host's messages.
            let source = plugin.map { "[\(TerminalText.escaped($0))] " } ?? ""
            StandardError.write("host: \(source)\(level): \(TerminalText.escaped(message))\n")
        }
    }
}
