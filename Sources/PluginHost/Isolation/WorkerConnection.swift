import HostShared
import Logging
import PluginBoundary
import Synchronization
import WorkerProtocol

/// The host's side of one worker: its process and the frame stream to it.
///
/// What happens when is decided by a ``StateMachine`` value; this class is
/// its I/O shell. It answers the worker's requests for host services with
/// the host's own ``HostServices`` (HTTP with the injected networking, log
/// lines with the host's logger), as far as the plugin's
/// ``PluginAllowance`` goes, logs each line of the worker's output as the
/// plugin's, keeps the time of every request, and turns the worker's end (a
/// crash, an exit, a hang the host stopped) into a ``WorkerError`` for
/// whatever was waiting.
final class WorkerConnection: Sendable {
    let process: WorkerProcess
    /// The plugin file as found.
    let path: String
    /// The user's network grant for the file and the digest of the file
    /// the worker was handed, for the host to judge once it knows the plugin.
    let grant: NetworkGrant.Claim?
    private let services: HostServices
    private let stream: FrameStream
    /// What the worker writes to its stdout and stderr.
    private let output: WorkerOutput
    /// What its plugin may ask of the host, counted here whatever the worker says.
    private let allowance: PluginAllowance
    /// The first system call the worker's filter refused, as the worker reported it.
    private let refused = Mutex<RefusedSystemCall?>(nil)
    private let machine = Mutex(StateMachine<Waiter>())
    /// Reaps the worker once, however many callers wait for its end.
    /// What ``shutdown()`` runs once the worker is reaped (``whenShutDown(_:)``).
    private let onShutdown = Mutex<(@Sendable () -> Void)?>(nil)
    private let reaper = Mutex<Task<WorkerProcess.Exit, Never>?>(nil)
    /// The policy its plugin's `http_get`s are held to, once the host knows
    /// the plugin; before that, the policy of a plugin that declares nothing.
    private let endpoint = Mutex<PluginEndpoint?>(nil)
    /// Its plugin's log lines, held until the host has checked the name the
    /// worker reported, then shown under its label.
    private let lines: PluginLines
    /// Whether its log lines are dropped (a scan's worker).
    private let quiet: Bool

    /// What waits for an answer in the shell.
    typealias Waiter = CheckedContinuation<Answer, Never>

    /// What a fetch got: the worker's reply, or the host's own timeout.
    enum FetchOutcome: Sendable {
        /// The worker replied in time.
        case replied(FetchReply.Outcome)
        /// The timeout passed first; whether the plugin then waited on an
        /// `http_get` says whose fault it was.
        case timedOut(waitingOnNetwork: Bool)
    }

    private init(process: WorkerProcess, path: String, services: HostServices, quiet: Bool, grant: NetworkGrant.Claim?) {
        self.process = process
        self.path = path
        self.grant = grant
        self.services = services
        self.quiet = quiet
        stream = FrameStream(input: process.fromWorker, output: process.toWorker)
        let allowance = services.allowances.make(for: FilePaths.name(of: path))
        self.allowance = allowance
        let (logger, lines) = (services.logger, PluginLines())
        self.lines = lines
        output = WorkerOutput(input: process.output) { line in
            // As the plugin's log lines: escaped where they are shown, counted, and named alike.
            guard !quiet, allowance.admitLogLine() else { return }
            lines.receive(LogFrame(level: .warning, message: line)) { Self.show($0, as: $1, to: logger) }
        }
    }

    /// Connects to a freshly spawned worker, taking over the host's ends of its pipes.
    /// - Parameter quiet: Whether the worker's log lines are dropped (a scan's worker).
    static func connect(to process: WorkerProcess, path: String, services: HostServices, quiet: Bool = false, grant: NetworkGrant.Claim? = nil) -> WorkerConnection {
        let connection = WorkerConnection(process: process, path: path, services: services, quiet: quiet, grant: grant)
        connection.stream.start { body throws(FrameError) in
            connection.receive(try Frame.decode(WorkerToHost.self, from: body))
        } onEnd: { end in
            if case .violation(let error) = end {
                connection.protocolViolation("\(error)")
            }
            connection.streamEnded()
        }
        return connection
    }

    // MARK: Requests

    /// Waits, at most `timeout`, for the sandbox the worker confined itself
    /// with, which it reports before it loads its plugin.
    func sandbox(timeout: Duration) async -> Result<SandboxReport, WorkerError> {
        switch await ask(timeout: timeout, { machine, waiter in machine.waitForSandbox(waiter) }) {
        case .sandboxed(let report): .success(report)
        case .failed(let failure): .failure(failure)
        case .loaded, .fetched, .timedOut: .failure(WorkerError(.loading, .protocolViolation("it answered out of turn")))
        }
    }

    /// Asks the worker to load its plugin, waiting at most `timeout`.
    func load(_ request: LoadRequest, timeout: Duration) async -> Result<LoadReply, WorkerError> {
        switch await ask(timeout: timeout, { machine, waiter in machine.load(request, waiter: waiter) }) {
        case .loaded(let reply): .success(reply)
        case .failed(let failure): .failure(failure)
        case .sandboxed, .fetched, .timedOut: .failure(WorkerError(.loading, .protocolViolation("it answered out of turn")))
        }
    }

    /// The user's fetches of the worker's plugin, queued (``FetchTurns``).
    var turns: FetchTurns { allowance.turns }

    /// Asks the worker for a price, waiting at most `timeout`: a fetch the
    /// plugin has not answered by then is over, and a later answer ignored.
    func fetch(symbol: String, currency: String, timeout: Duration) async -> Result<FetchOutcome, WorkerError> {
        allowance.fetchStarted()
        let timer = FetchTimer()
        let answer = await withCheckedContinuation { (waiter: Waiter) in
            let (id, action) = machine.withLock {
                $0.fetch(symbol: symbol, currency: currency, timeoutMilliseconds: timeout.timeoutMilliseconds, waiter: waiter)
            }
            if let id {
                timer.start { [self] in
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { run(machine.withLock { $0.fetchTimedOut(id) }) }
                }
            }
            run(action)
        }
        timer.cancel()
        switch answer {
        case .fetched(let outcome): return .success(.replied(outcome))
        case .timedOut(let waitingOnNetwork): return .success(.timedOut(waitingOnNetwork: waitingOnNetwork))
        case .failed(let failure): return .failure(failure)
        case .sandboxed, .loaded: return .failure(WorkerError(.fetching, .protocolViolation("it answered out of turn")))
        }
    }

    /// Closes the pipe to the worker, which makes a healthy worker exit, and
    /// reaps it. Frames the worker wrote into the pipe before it saw the end
    /// (a last log line, say) are still read: only the host's output is
    /// closed, and the worker's exit closes the rest. A worker still running
    /// a second later is killed.
    func shutdown() async {
        run(machine.withLock { $0.close() })
        stream.closeOutput()
        _ = await reap(within: .seconds(1))
        // Reaped: what it held of the memory budget is free.
        let release = onShutdown.withLock { action in
            defer { action = nil }
            return action
        }
        release?()
        // The worker is gone, so reading ends as soon as the pipe is drained;
        // unless a process the plugin started still holds the worker's end.
        let stream = self.stream
        let deadline = Task {
            try await Task.sleep(for: .seconds(1))
            stream.abandon()
        }
        await stream.readingEnded()
        deadline.cancel()
        // Its last lines of output, unless a process it started holds the pipe.
        let output = self.output
        let outputDeadline = Task {
            try await Task.sleep(for: .seconds(1))
            output.abandon()
        }
        await output.readingEnded()
        outputDeadline.cancel()
    }

    /// Runs `action` once, when ``shutdown()`` has reaped the worker: its
    /// place among the run's workers is free then.
    func whenShutDown(_ action: @escaping @Sendable () -> Void) {
        onShutdown.withLock { $0 = action }
    }

    /// The first system call the worker's filter refused, as it reported it.
    var refusedSystemCall: RefusedSystemCall? { refused.withLock { $0 } }

    /// Names the worker's plugin in later messages, and holds its later
    /// `http_get`s to its own policy, once the host has checked the name
    /// the worker reported; shows the log lines it held under `label`
    /// (``PluginIdentity/label``), as in-process lines are.
    func identify(as plugin: String, label: String, endpoint: PluginEndpoint) {
        machine.withLock { $0.identify(as: plugin) }
        allowance.identify(as: plugin)
        self.endpoint.withLock { $0 = endpoint }
        lines.label(label, show: show)
    }

    /// Shows one of the plugin's log lines under `label`. Attributed to the
    /// worker's plugin whatever the frame says: the plugin can write log
    /// frames itself, and must not speak as the host or as another plugin.
    private func show(_ line: LogFrame, as label: String) {
        Self.show(line, as: label, to: services.logger)
    }

    /// Shows one line of its plugin's under `label`, cut as every plugin line is.
    private static func show(_ line: LogFrame, as label: String, to logger: Logger) {
        var logger = logger
        logger[metadataKey: "plugin"] = "\(label)"
        logger.log(level: Self.level(line.level), "\(PluginOutputRules.logLine(line.message))")
    }

    /// The worker sent something that is not a frame of the protocol.
    func protocolViolation(_ detail: String) {
        run(machine.withLock { $0.protocolViolation(detail) })
    }

    // MARK: Events from the stream

    private func receive(_ message: WorkerToHost) {
        switch message {
        case .sandboxed(let report):
            run(machine.withLock { $0.sandboxReceived(report) })
        case .loaded(let reply):
            run(machine.withLock { $0.loadReplyReceived(reply) })
        case .fetched(let reply):
            run(machine.withLock { $0.fetchReplyReceived(reply) })
        case .log(let line):
            // Counted against the cap only when it would be shown.
            guard !quiet, Self.level(line.level) >= services.logger.logLevel, allowance.admitLogLine() else { return }
            lines.receive(line, show: show)
        case .httpGet(let request):
            let services = self.services
            // Until the worker's plugin is identified, the file names it.
            let plugin = machine.withLock { $0.plugin } ?? path
            if let (refusal, first) = allowance.startRequest() {
                if first { services.logger.warning("plugin \(plugin): \(refusal)") }
                return send(.httpResponse(HTTPResponseFrame(id: request.id, outcome: .failure(refusal.description))))
            }
            machine.withLock { $0.requestStarted() }
            let policy = (endpoint.withLock { $0 } ?? services.endpoint(for: nil, declared: nil)).policy
            let timeout = Duration.milliseconds(Int64(request.timeoutMilliseconds))
            let allowance = self.allowance
            Task {
                let outcome = await services.get(request.url, timeout: timeout, policy: policy, for: plugin)
                allowance.requestFinished()
                machine.withLock { $0.requestFinished() }
                let answer: HTTPResponseFrame.Outcome =
                    switch outcome {
                    case .response(let status, let body): .response(status: Int64(status), body: body)
                    case .failure(let reason): .failure(reason)
                    }
                send(.httpResponse(HTTPResponseFrame(id: request.id, outcome: answer)))
            }
        case .refusedSystemCall(let number):
            // Only what the worker says, which its plugin can forge: a name
            // for the user to look up, never a reason to act.
            guard let call = RefusedSystemCall(number: number) else { return }
            let first = refused.withLock { refused in
                defer { if refused == nil { refused = call } }
                return refused == nil
            }
            if first && services.allowances.isFirstRefusal(of: path) {
                let plugin = machine.withLock { $0.plugin } ?? FilePaths.name(of: path)
                services.logger.debug("plugin \(plugin): its sandbox refused the system call \(call), which failed with EPERM; it is not on the list a worker may make")
            }
        }
    }

    /// The worker's end of the pipe closed: it exited, crashed or was killed.
    private func streamEnded() {
        // A plugin the host never identified (it crashed, hung or lied while
        // it loaded) is named by its file, as the host's own lines name it.
        lines.label(FilePaths.name(of: path), show: show)
        Task {
            let cause: WorkerError.Cause =
                switch await reap() {
                case .signal(let signal): .signal(signal)
                case .exited(let status): .exited(status)
                }
            run(machine.withLock { $0.exited(cause) })
        }
    }

    // MARK: The shell

    /// Puts a request to the machine and waits for its answer, at most
    /// `timeout`, after which the worker is given up on as hung.
    private func ask(timeout: Duration, _ request: @escaping @Sendable (inout StateMachine<Waiter>, Waiter) -> StateMachine<Waiter>.Action) async -> Answer {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { run(machine.withLock { $0.timedOut(after: timeout) }) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { (waiter: Waiter) in
            run(machine.withLock { request(&$0, waiter) })
        }
    }

    /// Does what the machine decided, outside its lock.
    private func run(_ action: StateMachine<Waiter>.Action) {
        switch action {
        case .none:
            break
        case .resume(let waiter, let answer):
            waiter.resume(returning: answer)
        case .send(let message):
            send(message)
        case .fail(let waiters, let failure, let stop):
            if stop { process.kill() }
            for waiter in waiters { waiter.resume(returning: .failed(failure)) }
        }
    }

    /// Reaps the worker once, however many callers ask.
    private func reap(within limit: Duration = .seconds(2)) async -> WorkerProcess.Exit {
        let task = reaper.withLock { reaper in
            if let reaper { return reaper }
            let process = self.process
            let task = Task { await process.exit(within: limit) }
            reaper = task
            return task
        }
        return await task.value
    }

    private func send(_ message: HostToWorker) {
        do {
            stream.send(try Frame.encode(message))
        } catch {
            services.logger.error("cannot send a frame to the worker for \(path): \(error)")
        }
    }

    /// The host's level for a worker's log line.
    private static func level(_ level: LogFrame.Level) -> Logger.Level {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}

/// The timeout of one fetch, cancelled once the fetch is answered.
private final class FetchTimer: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { $0 = Task(operation: body) }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
