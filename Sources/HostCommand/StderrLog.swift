import Logging
import PluginHost
import Synchronization

/// The CLI's log lines: one plain line per message on stderr,
/// `host: [plugin] warning: …`, with the plugin's name when a plugin logged
/// it. No timestamps: these lines are read by people at a terminal.
enum StderrLog {
    private static let bootstrapped = Mutex(false)

    /// Makes these lines the process's logging, once: a command that tries
    /// the fast path first may wire its host twice.
    static func bootstrap(level: Logger.Level) {
        bootstrapped.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap { _ in handler(level: level) }
        }
    }

    /// A handler that writes messages at `level` and above.
    static func handler(level: Logger.Level) -> LineLogHandler {
        LineLogHandler(logLevel: level) { level, message, plugin in
            // Plugins write much of what is logged, in their name or through the host's messages.
            let source = plugin.map { "[\(TerminalText.escaped($0))] " } ?? ""
            ProgressLine.interrupt()
            StandardError.write("host: \(source)\(level): \(TerminalText.escaped(message))\n")
        }
    }
}
