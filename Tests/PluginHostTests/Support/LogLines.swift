import Logging
import PluginHost
import Synchronization

/// The lines a logger writes, kept for a test to read or to await.
final class LogLines: Sendable {
    private struct Waiter {
        let line: String
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var lines: [String] = []
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())

    /// A logger that writes here, each line as "plugin: message", or "host: message" for the host's own.
    ///
    /// - Parameter level: The lowest level kept.
    func logger(level: Logger.Level = .debug) -> Logger {
        Logger(label: "test") { _ in
            LineLogHandler(logLevel: level) { [self] _, message, plugin in append("\(plugin ?? "host"): \(message)") }
        }
    }

    /// Every line so far, in order.
    var all: [String] { state.withLock { $0.lines } }

    /// Returns once `line` has been written `count` times in all.
    func wait(for line: String, count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let isWritten = state.withLock { state in
                guard state.lines.count(where: { $0 == line }) < count else { return true }
                state.waiters.append(Waiter(line: line, count: count, continuation: continuation))
                return false
            }
            if isWritten { continuation.resume() }
        }
    }

    private func append(_ line: String) {
        let ready = state.withLock { state in
            state.lines.append(line)
            let written = state.lines.count(where: { $0 == line })
            let ready = state.waiters.filter { $0.line == line && $0.count <= written }
            state.waiters.removeAll { $0.line == line && $0.count <= written }
            return ready
        }
        // Resumed outside the lock: a resumed task may log again at once.
        for waiter in ready { waiter.continuation.resume() }
    }
}
