import Synchronization
import WorkerProtocol

/// A worker's plugin's log lines, in order: held while the host does not yet
/// know which plugin it is (its lines while it registers come before the
/// load report that names it), then shown under its label.
///
/// Both its `log` frames and its output lines come here, so both are named
/// alike. A class, shared with the output reader that starts before the
/// connection exists; the lock keeps the lines in order. Held lines are
/// bounded by ``PluginAllowance``'s cap on log lines, which is applied
/// before a line is handed here.
final class PluginLines: Sendable {
    private struct State {
        var known: String?
        var held: [LogFrame] = []
    }

    private let state = Mutex(State())

    /// Takes one line: shown now when the label is known, else held.
    func receive(_ line: LogFrame, show: (LogFrame, String) -> Void) {
        state.withLock { state in
            guard let known = state.known else { return state.held.append(line) }
            show(line, known)
        }
    }

    /// Sets the label, the first time only, and shows every line held.
    func label(_ label: String, show: (LogFrame, String) -> Void) {
        state.withLock { state in
            guard state.known == nil else { return }
            state.known = label
            for line in state.held { show(line, label) }
            state.held = []
        }
    }
}
