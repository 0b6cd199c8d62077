import PluginABI
import PluginBoundary
import Synchronization
import WorkerProtocol

import Glibc

/// The worker's side of the pipes to its host: it reads the host's frames
/// on the main thread and writes its own from any thread.
///
/// No thread here ever waits on plugin code. Loading and every fetch run on
/// threads of their own (``PluginCallThread``), so the main thread keeps
/// reading: when the host closes the pipe, or dies, it sees the end of file
/// and exits the process at once, however many plugin threads hang.
final class HostLink: Sendable {
    private let input: Int32
    private let output: Int32
    /// Held while one frame is written, so frames from several threads never interleave.
    private let writing = Mutex(())
    private let state = Mutex(State())

    private struct State {
        /// Set by the first `load`; later ones are ignored.
        var loadRequested = false
        /// The plugin's name once loaded, for stray callbacks.
        var plugin = ""
        var fetchers: [String: FetcherRegistrations.Registration] = [:]
        var httpWaiters: [UInt64: HTTPReply] = [:]
        var nextRequest: UInt64 = 1
        /// The refused system call has been reported.
        var reportedRefusal = false
    }

    /// The link over `input` (frames from the host) and `output` (frames to it).
    init(input: Int32 = WorkerStartup.framesIn, output: Int32 = WorkerStartup.framesOut) {
        self.input = input
        self.output = output
    }

    // MARK: Writing

    /// Writes one frame, whole, before any other thread's.
    ///
    /// The pipe is blocking: a host that stops reading stops the writer, not
    /// the host. A host that is gone makes the write raise SIGPIPE, which
    /// ends the worker, as it should.
    func send(_ message: WorkerToHost) {
        switch message {
        case .loaded, .fetched: reportRefusedSystemCall()
        default: break
        }
        let frame: [UInt8]
        do {
            frame = try Frame.encode(message)
        } catch {
            // Only a reply over the frame limit gets here. Exiting tells the
            // host at once, where a lost reply would look like a hang.
            WorkerMain.complain("cannot send its reply to the host: \(error)")
            _exit(WorkerStartup.ExitStatus.cannotReply)
        }
        writing.withLock { _ in
            frame.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count, let base = bytes.baseAddress {
                    let written = write(output, base + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { _exit(WorkerStartup.ExitStatus.cannotReply) }
                    offset += written
                }
            }
        }
    }

    /// Tells the host, once, the first system call the filter refused, so
    /// that it arrives before the reply the plugin made after it.
    private func reportRefusedSystemCall() {
        guard let number = SandboxConfinement.firstRefusedSystemCall else { return }
        let first = state.withLock { state in
            defer { state.reportedRefusal = true }
            return !state.reportedRefusal
        }
        if first { send(.refusedSystemCall(number)) }
    }

    /// Sends a log line when it is at least `threshold`.
    func log(_ level: LogFrame.Level, _ message: String, threshold: LogFrame.Level) {
        guard level >= threshold else { return }
        send(.log(LogFrame(level: level, message: message)))
    }

    /// Forwards a plugin's `http_get` to the host, which checks the URL as
    /// the plugin wrote it; `reply` gets the host's answer.
    func httpGet(_ url: String, timeoutMilliseconds: UInt32, reply: HTTPReply) {
        let id = state.withLock { state in
            defer { state.nextRequest += 1 }
            state.httpWaiters[state.nextRequest] = reply
            return state.nextRequest
        }
        send(.httpGet(HTTPRequestFrame(id: id, url: url, timeoutMilliseconds: timeoutMilliseconds)))
    }

    // MARK: Reading

    /// Reads and handles the host's frames until the host closes the pipe,
    /// then exits: the host is done, or gone.
    func serve() -> Never {
        var decoder = FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            // A pipe that cannot be read will never deliver the rest.
            guard count > 0 else { _exit(WorkerStartup.ExitStatus.done) }
            buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            do throws(FrameError) {
                while let body = try decoder.next() {
                    receive(try Frame.decode(HostToWorker.self, from: body))
                }
            } catch {
                // The host never sends a bad frame; if it did, nothing can be trusted.
                _exit(WorkerStartup.ExitStatus.badFrame)
            }
        }
    }

    private func receive(_ message: HostToWorker) {
        switch message {
        case .load(let request):
            let first = state.withLock { state in
                defer { state.loadRequested = true }
                return !state.loadRequested
            }
            guard first else { return }
            do {
                // dlopen runs the plugin's constructors, which may block.
                try PluginCallThread.start { [self] in load(request) }
            } catch {
                load(request)
            }
        case .fetch(let request):
            fetch(request)
        case .httpResponse(let response):
            guard let reply = state.withLock({ $0.httpWaiters.removeValue(forKey: response.id) }) else { return }
            switch response.outcome {
            case .response(let status, let body): reply.respond(status: Int(clamping: status), body: body)
            case .failure(let reason): reply.fail(reason)
            }
        }
    }

    // MARK: The plugin

    /// Loads the plugin on ``WorkerStartup/pluginFile`` with the checks the
    /// host's own loader makes, and reports what it registered.
    private func load(_ request: LoadRequest) {
        let reply: LoadReply
        do throws(PluginImageError) {
            let file = WorkerStartup.pluginFile
            var status = stat()
            guard fstat(file, &status) == 0 else { throw .notALibrary(reason: SystemError(operation: "stat", errno: errno).description) }
            try ELFHeaderCheck(descriptor: file, size: Int(status.st_size)).run()
            let descriptor = try PluginDescriptor.load("/proc/self/fd/\(file)")
            let session = WorkerSession(path: request.path, descriptor: descriptor, request: request, link: self)
            let registered = session.register(descriptor)
            let outcome = session.registrations.outcome
            let described = LoadReply.Descriptor(name: descriptor.name, version: descriptor.version, metadata: descriptor.metadata)
            guard registered == PB_OK else {
                send(.loaded(.registrationFailed(described, status: Int32(bitPattern: registered.rawValue), lastError: outcome.lastError)))
                return
            }
            state.withLock { state in
                state.plugin = descriptor.name
                for fetcher in outcome.taken where state.fetchers[fetcher.symbol] == nil { state.fetchers[fetcher.symbol] = fetcher }
            }
            reply = .registered(
                described,
                LoadReply.Registrations(
                    fetchers: outcome.taken.map { LoadReply.Fetcher(symbol: $0.symbol, displayName: $0.displayName, rank: $0.rank) },
                    duplicates: outcome.duplicates,
                    refused: outcome.refused))
        } catch {
            reply = .refused(error)
        }
        send(.loaded(reply))
    }

    /// Calls the plugin's fetcher; the answer goes to the host whenever the
    /// plugin gives it. The host keeps the time: it stops waiting at its
    /// timeout and ignores a later answer.
    private func fetch(_ request: FetchRequest) {
        let (fetcher, plugin) = state.withLock { ($0.fetchers[request.symbol], $0.plugin) }
        guard let fetcher else { return send(.fetched(FetchReply(id: request.id, outcome: .noSuchFetcher))) }
        let pending = PendingFetches.shared
        let token = pending.begin(plugin: plugin) { [self] outcome in
            send(.fetched(FetchReply(id: request.id, outcome: .called(outcome))))
        }
        do {
            try FetchCall.start(fetcher, currency: request.currency, timeoutMilliseconds: request.timeoutMilliseconds, token: token)
        } catch {
            if pending.cancel(token: token) { send(.fetched(FetchReply(id: request.id, outcome: .notCalled(error)))) }
        }
    }
}
