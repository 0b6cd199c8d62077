import WorkerProtocol

extension WorkerConnection {
    /// What a waiter gets.
    enum Answer: Sendable, Equatable {
        /// The worker's sandbox, as its first frame reported it.
        case sandboxed(SandboxReport)
        /// The worker's load reply, not yet checked.
        case loaded(LoadReply)
        /// The worker's fetch reply, not yet checked.
        case fetched(FetchReply.Outcome)
        /// The fetch outlived its timeout; whether the plugin then had an
        /// `http_get` outstanding says whose fault it was.
        case timedOut(waitingOnNetwork: Bool)
        /// The worker is gone, was given up on, or was closed.
        case failed(WorkerError)
    }

    /// The life of one worker connection, as a value: every event is a
    /// mutating function that returns what the I/O shell must do.
    ///
    /// ```
    /// starting ──sandboxed──▶ confined ──load──▶ loading ──loaded──▶ serving
    ///    │                       │                  │                   │
    ///    └───────────────────────┴──────┬───────────┴───────────────────┤
    ///                  timeout, violation, exit                        close
    ///                                   ▼                               ▼
    ///                                 failed ◀────────── exit ──────── closed
    /// ```
    ///
    /// Generic over what waits for an answer, so it can be tested with plain
    /// values; the shell uses continuations. A waiter is answered exactly
    /// once: by the event it waits for, by a failure, or by a close.
    struct StateMachine<Waiter> {
        /// What the shell does after an event.
        enum Action {
            /// Nothing.
            case none
            /// Answer one waiter.
            case resume(Waiter, Answer)
            /// Send a frame to the worker.
            case send(HostToWorker)
            /// Answer every waiter with the failure, and kill the worker when `stop`.
            case fail([Waiter], WorkerError, stop: Bool)
        }

        private enum Lifecycle {
            /// Spawned; its sandbox has not been reported.
            case starting(sandboxWaiter: Waiter?)
            /// Confined and reported; nothing asked of it yet.
            case confined
            /// Asked to load its plugin.
            case loading(Waiter)
            /// Loaded (or failed to, and said so); fetches by id.
            case serving([UInt64: Waiter])
            /// The host closed the pipe on purpose.
            case closed
            /// Gone or given up on; every later request gets this.
            case failed(WorkerError)
        }

        private var lifecycle = Lifecycle.starting(sandboxWaiter: nil)
        /// What the worker's first frame said, before any plugin code ran.
        private(set) var sandbox: SandboxReport?
        /// The plugin's name once the host has checked it.
        private(set) var plugin: String?
        /// The next fetch's id; every smaller one was asked for.
        private var nextFetchID: UInt64 = 1
        /// `http_get` requests the worker made that the host has not answered.
        private var requestsInFlight = 0

        /// A machine for a worker just spawned.
        init() {}

        /// Whether the worker failed while loading or while serving fetches.
        private var phase: WorkerError.Phase {
            switch lifecycle {
            case .starting, .confined, .loading: .loading
            case .serving, .closed, .failed: .fetching
            }
        }

        /// Everything waiting, in the order asked; nil once the end is explained.
        private var waiters: [Waiter]? {
            switch lifecycle {
            case .failed, .closed: nil
            case .starting(let waiter): waiter.map { [$0] } ?? []
            case .confined: []
            case .loading(let waiter): [waiter]
            case .serving(let fetches): fetches.sorted { $0.key < $1.key }.map(\.value)
            }
        }

        /// The failure a request gets once the host has closed the worker.
        private var closedFailure: WorkerError { WorkerError(phase, .exited(0), plugin: plugin) }

        // MARK: Requests

        /// The host waits for the worker's sandbox.
        mutating func waitForSandbox(_ waiter: Waiter) -> Action {
            if case .failed(let failure) = lifecycle { return .resume(waiter, .failed(failure)) }
            if let sandbox { return .resume(waiter, .sandboxed(sandbox)) }
            guard case .starting(nil) = lifecycle else { return .resume(waiter, .failed(closedFailure)) }
            lifecycle = .starting(sandboxWaiter: waiter)
            return .none
        }

        /// The host asks the worker to load its plugin.
        mutating func load(_ request: LoadRequest, waiter: Waiter) -> Action {
            switch lifecycle {
            case .confined:
                lifecycle = .loading(waiter)
                return .send(.load(request))
            case .failed(let failure):
                return .resume(waiter, .failed(failure))
            case .starting, .loading, .serving, .closed:
                return .resume(waiter, .failed(closedFailure))
            }
        }

        /// The host asks for a price; `id` is the fetch's, for its timeout.
        mutating func fetch(symbol: String, currency: String, timeoutMilliseconds: UInt32, waiter: Waiter) -> (id: UInt64?, action: Action) {
            switch lifecycle {
            case .serving(var fetches):
                let id = nextFetchID
                nextFetchID += 1
                fetches[id] = waiter
                lifecycle = .serving(fetches)
                return (id, .send(.fetch(FetchRequest(id: id, symbol: symbol, currency: currency, timeoutMilliseconds: timeoutMilliseconds))))
            case .failed(let failure):
                return (nil, .resume(waiter, .failed(failure)))
            case .starting, .confined, .loading, .closed:
                return (nil, .resume(waiter, .failed(closedFailure)))
            }
        }

        /// Fetch `id` outlived its timeout: its waiter stops waiting, and a
        /// later answer is ignored.
        mutating func fetchTimedOut(_ id: UInt64) -> Action {
            guard case .serving(var fetches) = lifecycle, let waiter = fetches.removeValue(forKey: id) else { return .none }
            lifecycle = .serving(fetches)
            return .resume(waiter, .timedOut(waitingOnNetwork: requestsInFlight > 0))
        }

        /// The host names the worker's plugin, once it has checked the name.
        mutating func identify(as plugin: String) {
            self.plugin = plugin
        }

        /// The host closes the pipe: a healthy worker exits. Whatever still
        /// waits gets a plain failure.
        mutating func close() -> Action {
            guard let waiters else { return .none }
            let failure = closedFailure
            lifecycle = .closed
            return waiters.isEmpty ? .none : .fail(waiters, failure, stop: false)
        }

        // MARK: Frames from the worker

        /// The worker reported its sandbox.
        mutating func sandboxReceived(_ report: SandboxReport) -> Action {
            if case .failed = lifecycle { return .none }
            // The worker sends one, before its plugin loads; a second is the plugin writing frames.
            guard sandbox == nil else { return violation("it reported its sandbox twice") }
            sandbox = report
            guard case .starting(let waiter) = lifecycle else { return .none }
            lifecycle = .confined
            return waiter.map { .resume($0, .sandboxed(report)) } ?? .none
        }

        /// The worker answered the load.
        mutating func loadReplyReceived(_ reply: LoadReply) -> Action {
            switch lifecycle {
            case .loading(let waiter):
                lifecycle = .serving([:])
                return .resume(waiter, .loaded(reply))
            case .failed, .closed:
                return .none
            case .starting, .confined, .serving:
                // Only one report is ever asked for; another is the plugin writing frames.
                return violation("it sent a load report nobody asked for")
            }
        }

        /// The worker answered a fetch.
        mutating func fetchReplyReceived(_ reply: FetchReply) -> Action {
            switch lifecycle {
            case .serving(var fetches):
                if let waiter = fetches.removeValue(forKey: reply.id) {
                    lifecycle = .serving(fetches)
                    return .resume(waiter, .fetched(reply.outcome))
                }
                // A fetch that timed out: its answer comes too late, and is ignored.
                guard reply.id >= nextFetchID else { return .none }
                return violation("it answered fetch \(reply.id), which the host never asked for")
            case .failed, .closed:
                return .none
            case .starting, .confined, .loading:
                return violation("it answered fetch \(reply.id), which the host never asked for")
            }
        }

        /// The worker's plugin called `http_get`.
        mutating func requestStarted() {
            requestsInFlight += 1
        }

        /// The host answered one of the worker's `http_get` requests.
        mutating func requestFinished() {
            requestsInFlight = max(0, requestsInFlight - 1)
        }

        // MARK: Ends

        /// The worker sent something that is not a frame of the protocol.
        mutating func protocolViolation(_ detail: String) -> Action {
            violation(detail)
        }

        /// The worker did not report in time, or did not load in time.
        mutating func timedOut(after limit: Duration) -> Action {
            fail(.hung(after: limit), stop: true)
        }

        /// The worker's process ended (its pipe closed, and it was reaped).
        mutating func exited(_ cause: WorkerError.Cause) -> Action {
            if case .closed = lifecycle {
                lifecycle = .failed(closedFailure)
                return .none
            }
            return fail(cause, stop: false)
        }

        private mutating func violation(_ detail: String) -> Action {
            fail(.protocolViolation(detail), stop: true)
        }

        /// Records the first failure; a second one, or one after a close, changes nothing.
        private mutating func fail(_ cause: WorkerError.Cause, stop: Bool) -> Action {
            guard let waiters else { return .none }
            let failure = WorkerError(phase, cause, plugin: plugin)
            lifecycle = .failed(failure)
            return .fail(waiters, failure, stop: stop)
        }
    }
}

extension WorkerConnection.StateMachine.Action: Equatable where Waiter: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): true
        case (.resume(let a, let x), .resume(let b, let y)): a == b && x == y
        case (.send(let x), .send(let y)): x == y
        case (.fail(let a, let x, let s), .fail(let b, let y, let t)): a == b && x == y && s == t
        default: false
        }
    }
}
