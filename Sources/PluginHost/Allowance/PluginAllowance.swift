import Synchronization

/// What one plugin may ask of the host in a run, and what it has asked.
///
/// Host services are capabilities with a policy, and the policy includes how
/// much: a plugin that asks for 20,000 requests or writes 20,000 log lines
/// gets an error it can report, or silence, while the host and the other
/// plugins carry on. One allowance per plugin, in-process (its
/// ``PluginSession``) or isolated (its ``WorkerConnection``, which counts
/// what the worker asks whatever the worker says); the worker's own session
/// counts too, so a plugin that keeps to the API is refused before a frame
/// is sent.
///
/// Threads and processes are capped by the kernel instead, in the worker's
/// PID namespace (``WorkerNamespaces/maximumTasks``).
final class PluginAllowance: Sendable {
    /// The caps, per plugin.
    enum Limit {
        /// `http_get` requests started and not yet answered.
        static let requestsOutstanding = 8
        /// `http_get` requests per fetch the host asked of the plugin; the
        /// plugin also has as many before its first fetch, while it loads.
        static let requestsPerFetch = 16
        /// Log lines per run: its `log` calls, and its worker's output lines.
        static let logLines = 1_000
        /// Fetches the host asks of the plugin at once; the user's others
        /// wait their turn (``FetchTurns``). No more than
        /// ``requestsOutstanding``, so that one request per fetch is never refused.
        static let fetchesAtOnce = requestsOutstanding
    }

    /// The user's fetches of the plugin, queued: they are never refused, only wait.
    let turns = FetchTurns(limit: Limit.fetchesAtOnce)

    private let state: Mutex<State>

    private struct State {
        var name: String
        var outstanding = 0
        var requests = 0
        var fetches = 0
        var logLines = 0
        var droppedLogLines = 0
        /// What the plugin's worker says it dropped before sending.
        var droppedByWorker = 0
        var warned: Set<AllowanceViolation.Cap> = []
    }

    /// Creates an allowance with nothing asked yet.
    /// - Parameter name: The plugin, for the run's last word on what it lost.
    init(name: String) {
        state = Mutex(State(name: name))
    }

    /// Names the plugin once its descriptor has been read.
    func identify(as name: String) {
        state.withLock { $0.name = name }
    }

    /// The plugin, as messages name it.
    var name: String { state.withLock { $0.name } }

    /// Counts a fetch the host asks of the plugin, which lets it make
    /// ``Limit/requestsPerFetch`` more requests.
    func fetchStarted() {
        state.withLock { $0.fetches += 1 }
    }

    /// Admits one `http_get`, or says why not. An admitted request must be
    /// ended with ``requestFinished()`` when its answer is given.
    /// - Returns: Nil when admitted; else the refusal, and whether it is the
    ///   first of its kind for this plugin (the one worth a warning).
    func startRequest() -> (refusal: AllowanceViolation, first: Bool)? {
        state.withLock { state in
            let cap: AllowanceViolation.Cap
            if state.outstanding >= Limit.requestsOutstanding {
                cap = .outstanding
            } else if state.requests >= Limit.requestsPerFetch * (state.fetches + 1) {
                cap = .perFetch
            } else {
                state.outstanding += 1
                state.requests += 1
                return nil
            }
            let refusal = AllowanceViolation(cap, plugin: state.name, requests: state.requests, fetches: state.fetches)
            return (refusal, state.warned.insert(cap).inserted)
        }
    }

    /// Ends a request ``startRequest()`` admitted.
    func requestFinished() {
        state.withLock { $0.outstanding -= 1 }
    }

    /// Whether one more log line of the plugin's is shown; past
    /// ``Limit/logLines`` it is counted and dropped.
    func admitLogLine() -> Bool {
        state.withLock { state in
            guard state.logLines < Limit.logLines else {
                state.droppedLogLines += 1
                return false
            }
            state.logLines += 1
            return true
        }
    }

    /// The log lines dropped here.
    var droppedLogLines: Int { state.withLock { $0.droppedLogLines } }

    /// Records how many of the plugin's log lines its worker dropped before
    /// sending them: a worker keeps to the cap itself, so a flood costs no frames.
    func noteDroppedByWorker(_ count: Int) {
        state.withLock { $0.droppedByWorker = max($0.droppedByWorker, min(max(count, 0), Int(Int32.max))) }
    }

    /// The line a run ends with when the plugin lost log lines to the cap, else nil.
    var droppedLogLinesSummary: String? {
        state.withLock { state in
            let dropped = state.droppedLogLines + state.droppedByWorker
            guard dropped > 0 else { return nil }
            return "plugin \(state.name): dropped \(dropped) of its log lines, past the \(Limit.logLines) a plugin may write in one run"
        }
    }
}
