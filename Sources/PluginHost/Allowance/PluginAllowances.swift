import Logging
import Synchronization

/// The allowances of one host's plugins, so that the run can end with one
/// line per plugin that lost log lines to the cap.
final class PluginAllowances: Sendable {
    private let made = Mutex<[PluginAllowance]>([])
    /// Whether log lines are capped here. A worker's are not: its host
    /// counts them, and it alone can end the run saying how many it dropped.
    private let capsLogLines: Bool
    /// The plugin files whose refused system call this run has named.
    private let refusalsNamed = Mutex<Set<String>>([])

    /// Creates the allowances of one set of services.
    /// - Parameter capsLogLines: False for an isolated worker's own services.
    init(capsLogLines: Bool = true) {
        self.capsLogLines = capsLogLines
    }

    /// A new allowance for a plugin, counted in this run.
    func make(for name: String) -> PluginAllowance {
        let allowance = PluginAllowance(name: name, capsLogLines: capsLogLines)
        made.withLock { $0.append(allowance) }
        return allowance
    }

    /// Whether a refused system call of the plugin in `path` is news in
    /// this run: a scan and a fetch each start a worker for it, and one line is enough.
    func isFirstRefusal(of path: String) -> Bool {
        refusalsNamed.withLock { $0.insert(path).inserted }
    }

    /// Logs, once, a warning for each plugin that lost log lines to the cap.
    func reportDroppedLogLines(to logger: Logger) {
        let allowances = made.withLock { made in
            defer { made = [] }
            return made
        }
        for summary in allowances.compactMap(\.droppedLogLinesSummary) {
            logger.warning("\(summary)")
        }
    }
}
