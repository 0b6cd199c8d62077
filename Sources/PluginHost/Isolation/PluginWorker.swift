import FoundationEssentials
import Dispatch
import HostShared
import Logging
import Synchronization

import Glibc

/// The worker side of `--isolate`: what `host plugin-worker` runs.
///
/// The host starts one worker per plugin file, with frames from the host on
/// descriptor 3, frames to the host on 4 and the checked plugin file on 5.
/// Before anything else, still on its main thread and alone, the worker has
/// the kernel tie its life to the host's and confines itself
/// (`SandboxConfinement`); its first frame tells the host what sandbox it
/// got. Then it waits for a `load` frame, loads the plugin from descriptor 5
/// with the ordinary loader, and serves fetches. The plugin sees the usual
/// `pb_host_services`, but behind it every `http_get` and every log line
/// becomes a frame to the host, which performs it with its own networking
/// and logger: a worker has no networking of its own.
///
/// When the host closes the pipe, or dies, the worker exits at once with
/// `_exit(0)`, from the pipe loop's own thread, so a plugin that hangs every
/// other thread cannot keep it alive; and a host that dies takes its workers
/// with it (`PR_SET_PDEATHSIG`).
package enum PluginWorker {
    /// Confines the process, then serves the host on descriptors 3 and 4
    /// until it closes them.
    ///
    /// Call it from `main`, on the main thread, before anything starts
    /// another thread: the sandbox covers only the threads started after it.
    /// - Parameters:
    ///   - skipped: Sandbox layers not to apply, for tests and benchmarks;
    ///     the worker reports them missing.
    ///   - names: What the host's program calls its settings, for the
    ///     errors the worker sends back as text.
    /// - Returns: Never: the process exits when the host is done with it.
    /// - Throws: ``NotStartedByHost``, having done nothing, when the process
    ///   lacks the host's pipes: someone ran it by hand.
    package static func run(skippingSandbox skipped: SandboxLayers = [], naming names: SettingNames = SettingNames()) throws(NotStartedByHost) -> Never {
        guard isPipe(WorkerProcess.framesIn), isPipe(WorkerProcess.framesOut) else { throw NotStartedByHost() }
        SandboxConfinement.bindToHost()
        let sandbox = SandboxConfinement.confine(pluginFile: WorkerProcess.pluginFile, skipping: skipped)
        // The plugin may start processes where no seccomp filter stops it;
        // they must not keep the host's pipes open.
        for descriptor in [WorkerProcess.framesIn, WorkerProcess.framesOut, WorkerProcess.pluginFile] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        let stream = FrameStream(input: WorkerProcess.framesIn, output: WorkerProcess.framesOut)
        // The pipe loop ignores SIGPIPE; a worker should rather die with its host.
        _ = signal(SIGPIPE, SIG_DFL)
        let link = HostLink(stream: stream, names: names)
        stream.start { body in
            // The host never sends a bad frame; if it did, nothing can be trusted.
            guard let message = try? Frame.decode(HostToWorker.self, from: body) else { _exit(ExitStatus.badFrame) }
            link.receive(message)
        } onEnd: { end in
            // The host is done or gone.
            _exit(end == .closed ? ExitStatus.done : ExitStatus.badFrame)
        }
        // First, before the plugin is even loaded, so that it cannot be
        // forged: the host takes no second one.
        link.send(.sandboxed(sandbox))
        // Everything happens on the pipe loop's thread and in tasks it
        // starts; the main thread only parks, as it does under an async `main`.
        dispatchMain()
    }

    /// A worker started without the host's pipes on descriptors 3 and 4.
    package struct NotStartedByHost: Error, Equatable {}

    /// How a worker ends, as the host sees in ``WorkerFailure/Cause/exited(_:)``.
    enum ExitStatus {
        /// The host closed the pipe: done.
        static let done: Int32 = 0
        /// The host's pipe broke, or sent what is not a frame (sysexits' `EX_DATAERR`).
        static let badFrame: Int32 = 65
        /// A reply could not be sent (`EX_SOFTWARE`).
        static let cannotReply: Int32 = 70
    }

    private static func isPipe(_ descriptor: Int32) -> Bool {
        (try? FileFacts.of(descriptor: descriptor))?.kind == .other("a named pipe")
    }
}

/// The worker's connection to its host.
final class HostLink: Sendable {
    private let stream: FrameStream
    private let names: SettingNames
    private let state = Mutex(State())

    private struct State {
        var loading = false
        /// The tally last sent to the host.
        var reported = WorkerTally(refusedSystemCall: nil, droppedLogLines: 0)
        /// The plugin's services, once it is loaded: they count what it drops.
        var services: HostServices?
        var fetchers: [String: PluginFetcher] = [:]
        var httpWaiters: [UInt64: CheckedContinuation<HTTPOutcome, Never>] = [:]
        var nextID: UInt64 = 1
    }

    init(stream: FrameStream, names: SettingNames) {
        self.stream = stream
        self.names = names
    }

    func receive(_ message: HostToWorker) {
        switch message {
        case .load(let request):
            let first = state.withLock { state in
                defer { state.loading = true }
                return !state.loading
            }
            guard first else { return }
            Task { load(request) }
        case .fetch(let request):
            Task { await fetch(request) }
        case .httpResponse(let response):
            state.withLock { $0.httpWaiters.removeValue(forKey: response.id) }?.resume(returning: response.outcome)
        }
    }

    /// Performs an HTTP GET through the host, which checks the URL as the
    /// plugin wrote it.
    func httpGet(_ url: String, timeout: Duration) async -> HTTPOutcome {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state in
                let id = state.nextID
                state.nextID += 1
                state.httpWaiters[id] = continuation
                return id
            }
            send(.httpGet(HTTPRequestFrame(id: id, url: url, timeoutMilliseconds: Int64(timeout.timeoutMilliseconds))))
        }
    }

    func send(_ message: WorkerToHost) {
        switch message {
        case .loaded, .fetched: reportTally()
        default: break
        }
        do {
            stream.send(try Frame.encode(message))
        } catch {
            // Only a reply over the frame limit gets here. Exiting tells the
            // host at once, where a lost reply would look like a hang.
            StandardError.write("host: error: plugin-worker cannot send its reply to the host: \(error)\n")
            _exit(PluginWorker.ExitStatus.cannotReply)
        }
    }

    /// Tells the host what it cannot count itself, when that changed, so
    /// that it arrives before the reply the plugin made after it.
    private func reportTally() {
        let tally = state.withLock { state -> WorkerTally? in
            let now = WorkerTally(
                refusedSystemCall: SandboxConfinement.firstRefusedSystemCall, droppedLogLines: state.services?.allowances.droppedLogLines ?? 0)
            guard now != state.reported else { return nil }
            state.reported = now
            return now
        }
        if let tally { send(.tally(tally)) }
    }

    private func load(_ request: LoadRequest) {
        let level = Logger.Level(rawValue: request.logLevel) ?? .warning
        // Every log line goes to the host, which logs it with its own logger.
        LoggingSystem.bootstrap { [self] _ in
            LineLogHandler(logLevel: level) { [self] level, message, plugin in
                send(.log(LogFrame(level: level.rawValue, message: message, plugin: plugin)))
            }
        }
        let services = HostServices(
            forwardingTo: { [self] url, timeout in await httpGet(url, timeout: timeout) },
            configuration: request.configuration,
            defaultTimeout: .milliseconds(request.defaultTimeoutMilliseconds),
            logger: Logger(label: "host")
        )
        state.withLock { $0.services = services }
        let claims = SymbolClaims()
        for (owner, symbols) in Dictionary(grouping: request.claims, by: \.value) {
            claims.claim(symbols.map(\.key), for: owner)
        }
        let loader = PluginLoader(services: services, trust: PluginTrust(), claims: claims)
        let reply: LoadReply
        do throws(PluginLoader.Failure) {
            let file: PluginFile
            do throws(PluginLoadError) {
                file = try PluginFile.adopt(descriptor: WorkerProcess.pluginFile)
            } catch {
                throw PluginLoader.Failure(error: error)
            }
            let (report, fetchers) = try loader.load(request.path, from: file)
            state.withLock { state in
                for fetcher in fetchers { state.fetchers[fetcher.symbol] = fetcher }
            }
            reply = LoadReply(report: report, fetchers: fetchers.map { .init(symbol: $0.symbol, displayName: $0.displayName) })
        } catch {
            reply = LoadReply(report: error.report(for: request.path), fetchers: [])
        }
        send(.loaded(reply))
    }

    private func fetch(_ request: FetchRequest) async {
        guard let fetcher = state.withLock({ $0.fetchers[request.symbol] }) else {
            return send(.fetched(FetchReply(id: request.id, quote: nil, error: "the worker has no fetcher for \(request.symbol)")))
        }
        let result = await fetcher.price(in: request.currency, timeout: .milliseconds(request.timeoutMilliseconds))
        switch result {
        case .success(let quote):
            send(.fetched(FetchReply(id: request.id, quote: .init(base: quote.base, currency: quote.currency, amount: quote.amount), error: nil)))
        case .failure(let error):
            send(.fetched(FetchReply(id: request.id, quote: nil, error: error.message(naming: names))))
        }
    }
}
