import Logging
import Synchronization

/// The allowances of one host's plugins, so that the run can end with one
/// line per plugin that lost log lines to the cap.
final class PluginAllowances: Sendable {
    private let made = Mutex<[PluginAllowance]>([])
    /// The plugin files whose refused system call this run has named.
    private let refusalsNamed = Mutex<Set<String>>([])

    /// A new allowance for a plugin, counted in this run.
    func make(for name: String) -> PluginAllowance {
        let allowance = PluginAllowance(name: name)
        made.withLock { $0.append(allowance) }
        return allowance
    }

    /// The log lines every plugin of these services lost to the cap: what a
    /// worker tells its host (``WorkerTally``).
    var droppedLogLines: Int {
        made.withLock { $0.reduce(0) { $0 + $1.droppedLogLines } }
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
