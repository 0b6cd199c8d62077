import WorkerProtocol

/// A worker's plugin's log lines, in order: held while the host does not yet
/// know which plugin it is (its lines while it registers come before the
/// load report that names it), then shown under its label.
///
/// Held lines are bounded by ``PluginAllowance``'s cap on log lines, which
/// the connection applies before it hands a line here.
struct PluginLines: Sendable {
    /// The label its lines are shown under, once known.
    private var known: String?
    private var held: [LogFrame] = []

    /// Takes one line: shown now when the label is known, else held.
    mutating func receive(_ line: LogFrame, show: (LogFrame, String) -> Void) {
        guard let known else { return held.append(line) }
        show(line, known)
    }

    /// Sets the label, the first time only, and shows every line held.
    mutating func label(_ label: String, show: (LogFrame, String) -> Void) {
        guard known == nil else { return }
        known = label
        for line in held { show(line, label) }
        held = []
    }
}
