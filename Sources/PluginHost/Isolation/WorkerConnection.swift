import FoundationEssentials
import HostShared
import Logging
import Synchronization

/// The host's side of one isolated plugin: its worker process and the frame
/// stream to it.
///
/// It answers the worker's requests for host services with the host's own
/// ``HostServices`` (HTTP with the injected networking, log lines with the
/// host's logger), as far as the plugin's ``PluginAllowance`` goes, logs
/// each line of the worker's output as the plugin's, and turns the worker's
/// end (a crash, an exit, a hang the host stopped) into a ``WorkerFailure``
/// for whatever was waiting.
final class WorkerConnection: Sendable {
    let process: WorkerProcess
    /// The plugin file as found.
    let path: String
    private let services: HostServices
    private let stream: FrameStream
    /// What the worker writes to its stdout and stderr.
    private let output: WorkerOutput
    /// What its plugin may ask of the host, counted here whatever the worker says.
    let allowance: PluginAllowance
    private let state = Mutex(State())

    private struct State {
        /// What the worker's first frame said, before any plugin code ran.
        var sandbox: SandboxReport?
        var sandboxWaiter: CheckedContinuation<Result<SandboxReport, WorkerFailure>, Never>?
        var loadWaiter: CheckedContinuation<Result<LoadReply, WorkerFailure>, Never>?
        var fetchWaiters: [UInt64: CheckedContinuation<Result<FetchReply, WorkerFailure>, Never>] = [:]
        var nextID: UInt64 = 1
        var phase = WorkerFailure.Phase.loading
        var plugin: String?
        /// The first system call the worker's filter refused, as the worker reported it.
        var refusedSystemCall: RefusedSystemCall?
        /// Set once the worker is gone or given up on; every later request gets it.
        var failure: WorkerFailure?
        /// The host closed the stream on purpose: the end is not a failure.
        var closing = false
        var reaper: Task<WorkerProcess.Exit, Never>?
    }

    /// How long past its own timeout a fetch may take before the host
    /// decides the worker itself is stuck.
    static let fetchGrace = Duration.seconds(2)

    private init(process: WorkerProcess, path: String, services: HostServices) {
        self.process = process
        self.path = path
        self.services = services
        stream = FrameStream(input: process.fromWorker, output: process.toWorker)
        let allowance = services.allowances.make(for: FilePaths.name(of: path))
        self.allowance = allowance
        var logger = services.logger
        logger[metadataKey: "plugin"] = "\(FilePaths.name(of: path))"
        output = WorkerOutput(input: process.output) { [logger] line in
            // As the plugin's log lines: escaped where they are shown, and counted.
            guard allowance.admitLogLine() else { return }
            var logger = logger
            logger[metadataKey: "plugin"] = "\(allowance.name)"
            logger.warning("\(line)")
        }
    }

    /// Connects to a freshly spawned worker, taking over the host's ends of its pipes.
    static func connect(to process: WorkerProcess, path: String, services: HostServices) -> WorkerConnection {
        let connection = WorkerConnection(process: process, path: path, services: services)
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
    func sandbox(timeout: Duration) async -> Result<SandboxReport, WorkerFailure> {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { giveUp(.hung(after: timeout)) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Result<SandboxReport, WorkerFailure>? in
                if let sandbox = state.sandbox { return .success(sandbox) }
                if let failure = state.failure { return .failure(failure) }
                state.sandboxWaiter = continuation
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Asks the worker to load its plugin, waiting at most `timeout`.
    func load(_ request: LoadRequest, timeout: Duration) async -> Result<LoadReply, WorkerFailure> {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { giveUp(.hung(after: timeout)) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let failed = state.withLock { state -> WorkerFailure? in
                if let failure = state.failure { return failure }
                state.loadWaiter = continuation
                return nil
            }
            if let failed { return continuation.resume(returning: .failure(failed)) }
            send(.load(request))
        }
    }

    /// Asks the worker for a price. The worker enforces `timeout` itself;
    /// the host waits ``fetchGrace`` longer before it stops the worker.
    func fetch(symbol: String, currency: String, timeout: Duration) async -> Result<FetchReply, WorkerFailure> {
        allowance.fetchStarted()
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout + Self.fetchGrace)
            if !Task.isCancelled { giveUp(.hung(after: timeout + Self.fetchGrace)) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let started = state.withLock { state -> Result<UInt64, WorkerFailure> in
                if let failure = state.failure { return .failure(failure) }
                let id = state.nextID
                state.nextID += 1
                state.fetchWaiters[id] = continuation
                return .success(id)
            }
            switch started {
            case .failure(let failure):
                continuation.resume(returning: .failure(failure))
            case .success(let id):
                send(.fetch(FetchRequest(id: id, symbol: symbol, currency: currency, timeoutMilliseconds: Int64(timeout.timeoutMilliseconds))))
            }
        }
    }

    /// Closes the pipe to the worker, which makes a healthy worker exit, and
    /// reaps it. Frames the worker wrote into the pipe before it saw the end
    /// (a last log line, say) are still read: only the host's output is
    /// closed, and the worker's exit closes the rest. A worker still running
    /// a second later is killed.
    func shutdown() async {
        state.withLock { $0.closing = true }
        stream.closeOutput()
        _ = await reap(within: .seconds(1))
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

    /// The first system call the worker's filter refused, as it reported it.
    var refusedSystemCall: RefusedSystemCall? { state.withLock { $0.refusedSystemCall } }

    // MARK: Events from the stream

    func receive(_ message: WorkerToHost) {
        switch message {
        case .sandboxed(let report):
            let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Result<SandboxReport, WorkerFailure>, Never>?) in
                guard state.sandbox == nil else { return (false, nil) }
                state.sandbox = report
                defer { state.sandboxWaiter = nil }
                return (true, state.sandboxWaiter)
            }
            // The worker sends one, before its plugin loads; a second is the plugin writing frames.
            guard first else { return protocolViolation("it reported its sandbox twice") }
            waiter?.resume(returning: .success(report))
        case .loaded(let reply):
            let waiter = state.withLock { state in
                defer { state.loadWaiter = nil }
                return state.loadWaiter
            }
            // Only one report is ever asked for; a second is the plugin writing frames.
            guard let waiter else { return protocolViolation("it sent a load report nobody asked for") }
            // The name is checked before the host uses it (IsolatedPluginLoader);
            // until then messages name the file.
            state.withLock { $0.phase = .fetching }
            waiter.resume(returning: .success(reply))
        case .fetched(let reply):
            let (waiter, failed) = state.withLock { state in
                (state.fetchWaiters.removeValue(forKey: reply.id), state.failure != nil)
            }
            if let waiter {
                waiter.resume(returning: .success(reply))
            } else if !failed {
                protocolViolation("it answered fetch \(reply.id), which the host never asked for")
            }
        case .log(let line):
            guard allowance.admitLogLine() else { return }
            // Attributed to the worker's plugin whatever the frame says: the
            // plugin can write log frames itself, and must not speak as the host
            // or as another plugin.
            var logger = services.logger
            logger[metadataKey: "plugin"] = "\(state.withLock { $0.plugin } ?? URL(filePath: path).lastPathComponent)"
            logger.log(level: Logger.Level(rawValue: line.level) ?? .info, "\(PluginInput.logLine(line.message))")
        case .httpGet(let request):
            let services = self.services
            // Until the worker reports its plugin's name, the file names it.
            let plugin = state.withLock { $0.plugin } ?? path
            if let (refusal, first) = allowance.startRequest() {
                if first { services.logger.warning("plugin \(plugin): \(refusal)") }
                return send(.httpResponse(HTTPResponseFrame(id: request.id, .failure(refusal.description))))
            }
            let allowance = self.allowance
            Task {
                let outcome = await services.get(request.url, timeout: .milliseconds(request.timeoutMilliseconds), for: plugin)
                allowance.requestFinished()
                send(.httpResponse(HTTPResponseFrame(id: request.id, outcome)))
            }
        case .tally(let tally):
            allowance.noteDroppedByWorker(tally.droppedLogLines)
            // Only what the worker says, which its plugin can forge: a name
            // for the user to look up, never a reason to act.
            guard let number = tally.refusedSystemCall, let refused = RefusedSystemCall(number: number) else { return }
            let first = state.withLock { state in
                defer { if state.refusedSystemCall == nil { state.refusedSystemCall = refused } }
                return state.refusedSystemCall == nil
            }
            if first && services.allowances.isFirstRefusal(of: path) {
                let plugin = state.withLock { $0.plugin } ?? FilePaths.name(of: path)
                services.logger.debug("plugin \(plugin): its sandbox refused the system call \(refused), which failed with EPERM; it is not on the list a worker may make")
            }
        }
    }

    /// The worker's end of the pipe closed: it exited, crashed or was killed.
    func streamEnded() {
        Task {
            let exit = await reap()
            let cause: WorkerFailure.Cause =
                switch exit {
                case .signal(let signal): .signal(signal)
                case .exited(let status): .exited(status)
                }
            fail(cause)
        }
    }

    /// Names the worker's plugin in later messages, once the host has checked
    /// the name the worker reported.
    func identify(as plugin: String) {
        state.withLock { $0.plugin = plugin }
        allowance.identify(as: plugin)
    }

    /// The worker sent something that is not a frame of the protocol.
    func protocolViolation(_ detail: String) {
        giveUp(.protocolViolation(detail))
    }

    // MARK: Internals

    /// Records `cause` unless the end was already explained, stops the worker
    /// and answers everything waiting.
    private func giveUp(_ cause: WorkerFailure.Cause) {
        fail(cause)
        process.kill()
    }

    private func fail(_ cause: WorkerFailure.Cause) {
        let (failure, waiters) = state.withLock { state -> (WorkerFailure?, [CheckedContinuation<Result<FetchReply, WorkerFailure>, Never>]) in
            if state.failure == nil && !state.closing {
                state.failure = WorkerFailure(state.phase, cause, plugin: state.plugin)
            } else if state.failure == nil {
                // Closed on purpose; anything still asking gets a plain reason.
                state.failure = WorkerFailure(state.phase, .exited(0), plugin: state.plugin)
            }
            let waiters = Array(state.fetchWaiters.values)
            state.fetchWaiters.removeAll()
            return (state.failure, waiters)
        }
        guard let failure else { return }
        let (sandboxWaiter, loadWaiter) = state.withLock { state in
            defer { (state.sandboxWaiter, state.loadWaiter) = (nil, nil) }
            return (state.sandboxWaiter, state.loadWaiter)
        }
        sandboxWaiter?.resume(returning: .failure(failure))
        loadWaiter?.resume(returning: .failure(failure))
        waiters.forEach { $0.resume(returning: .failure(failure)) }
    }

    /// Reaps the worker once, however many callers ask.
    private func reap(within limit: Duration = .seconds(2)) async -> WorkerProcess.Exit {
        let task = state.withLock { state in
            if let reaper = state.reaper { return reaper }
            let process = self.process
            let reaper = Task { await process.exit(within: limit) }
            state.reaper = reaper
            return reaper
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
}
