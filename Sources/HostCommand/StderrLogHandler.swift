import Logging
import PluginHost

/// Writes one plain line per message to stderr: `host: warning: …`, with
/// the plugin's name when a plugin logged it. No timestamps: these lines are
/// read by people at a terminal.
struct StderrLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let source = merged["plugin"].map { "[\($0)] " } ?? ""
        let line = "host: \(source)\(event.level): \(event.message)\n"
        StandardError.write(line)
    }
}
