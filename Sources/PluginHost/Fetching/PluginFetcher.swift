import HostShared
import Logging
import PluginABI
import PluginBoundary

/// A fetcher that a plugin registered, callable from Swift.
///
/// This is what the host's registry holds under each symbol. Calling it
/// crosses the C ABI: the plugin's `fetch` starts the work and answers
/// through a completion callback, so no thread waits.
package struct PluginFetcher: Sendable {
    /// The ticker, e.g. "ETH".
    package let symbol: String
    /// A human-readable name, e.g. "Ethereum".
    package let displayName: String
    /// The plugin that registered it.
    package let plugin: PluginIdentity
    /// The rank the plugin declares for it, before the host's cap and the
    /// user's overrides, which ``SymbolProviders`` apply.
    package let rank: SourceRank

    /// Where the fetch runs, known when the fetcher is made.
    private let backend: Backend

    private enum Backend: Sendable {
        /// The plugin is loaded, in this process or in a worker.
        case loaded(Runs)
        /// The plugin is known from a listing and loads on the first fetch,
        /// where its ``Placement`` puts it; the fetch then calls what it
        /// registered there directly, never through a second fetcher.
        case listed(OnDemandPlugins, index: Int)
    }

    /// Where a loaded plugin's fetcher is called.
    private enum Runs: Sendable {
        /// The plugin is loaded in this process.
        case inProcess(FetcherRegistrations.Registration, session: PluginSession)
        /// The plugin runs in an isolated worker (`--isolate`).
        case isolated(WorkerConnection)
    }

    init(
        symbol: String, displayName: String, rank: SourceRank, plugin: PluginIdentity, registration: FetcherRegistrations.Registration,
        session: PluginSession
    ) {
        self.symbol = symbol
        self.displayName = displayName
        self.rank = rank
        self.plugin = plugin
        self.backend = .loaded(.inProcess(registration, session: session))
    }

    init(symbol: String, displayName: String, rank: SourceRank, plugin: PluginIdentity, worker: WorkerConnection) {
        self.symbol = symbol
        self.displayName = displayName
        self.rank = rank
        self.plugin = plugin
        self.backend = .loaded(.isolated(worker))
    }

    init(symbol: String, displayName: String, rank: SourceRank, plugin: PluginIdentity, listedIn listing: OnDemandPlugins, at index: Int) {
        self.symbol = symbol
        self.displayName = displayName
        self.rank = rank
        self.plugin = plugin
        self.backend = .listed(listing, index: index)
    }

    /// Fetches the current price.
    ///
    /// Returns after `timeout` at the latest, even when the plugin never calls
    /// back; a late answer is then ignored. For a plugin in an isolated
    /// worker the timeout is enforced inside the worker, and the host gives a
    /// worker that stops answering 2 seconds more before it stops it.
    /// - Parameters:
    ///   - currency: The quote currency, e.g. "USD".
    ///   - timeout: How long to wait for the plugin's answer.
    /// - Returns: The plugin's quote, or why there is none.
    package func price(in currency: String, timeout: Duration) async -> Result<Quote, FetchError> {
        switch backend {
        case .loaded(let runs):
            await price(in: currency, timeout: timeout, on: runs, as: plugin)
        case .listed(let listing, let index):
            await price(in: currency, timeout: timeout, loading: listing.plugin(at: index))
        }
    }

    /// Calls the loaded plugin's fetcher where it runs, in one of its
    /// turns; `plugin` is who answers, as its load saw it.
    private func price(in currency: String, timeout: Duration, on runs: Runs, as plugin: PluginIdentity) async -> Result<Quote, FetchError> {
        switch runs {
        case .inProcess(let registration, let session):
            await inTurn(of: session.allowance.turns, timeout: timeout, plugin: plugin) { timeout in
                await price(in: currency, timeout: timeout, registration: registration, session: session, plugin: plugin)
            }
        case .isolated(let worker):
            await inTurn(of: worker.turns, timeout: timeout, plugin: plugin) { timeout in
                await price(in: currency, timeout: timeout, worker: worker, plugin: plugin)
            }
        }
    }

    /// Runs `fetch` once the plugin has a turn free (``FetchTurns``), with
    /// what is left of `timeout`: the wait counts, so a fetch of many
    /// symbols still ends within the timeout.
    private func inTurn(
        of turns: FetchTurns, timeout: Duration, plugin: PluginIdentity, _ fetch: (Duration) async -> Result<Quote, FetchError>
    ) async -> Result<Quote, FetchError> {
        // A turn free at once keeps the whole timeout, to the millisecond the user gave.
        if turns.startNow() {
            defer { turns.finish() }
            return await fetch(timeout)
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        guard await turns.start(by: deadline) else {
            return .failure(FetchError(symbol: symbol, .noTurn(after: timeout, plugin: plugin.name)))
        }
        defer { turns.finish() }
        let left = deadline - clock.now
        guard left > .zero else { return .failure(FetchError(symbol: symbol, .noTurn(after: timeout, plugin: plugin.name))) }
        return await fetch(left)
    }

    /// Loads the plugin, if this run has not yet, and calls what it
    /// registered for this symbol where it runs. Loading does not count
    /// against `timeout`: a worker's load has its own limit.
    private func price(in currency: String, timeout: Duration, loading plugin: OnDemandPlugin) async -> Result<Quote, FetchError> {
        await plugin.withFetchers { loaded in
            switch loaded {
            case .failure(let failure):
                return .failure(FetchError(symbol: symbol, .notLoaded(plugin: plugin.identity.name, path: plugin.path, failure)))
            case .success(let fetchers):
                guard let registered = fetchers.first(where: { $0.symbol == symbol }), case .loaded(let runs) = registered.backend else {
                    return .failure(FetchError(symbol: symbol, .noLongerRegistered(plugin: plugin.identity.name, path: plugin.path)))
                }
                return await price(in: currency, timeout: timeout, on: runs, as: registered.plugin)
            }
        }
    }

    /// Asks the worker; a crash, exit or hang of the worker becomes one
    /// error naming the plugin and the signal or status. The host keeps the
    /// time, as for a plugin in this process: at `timeout` it stops waiting,
    /// and a later answer is ignored.
    private func price(in currency: String, timeout: Duration, worker: WorkerConnection, plugin: PluginIdentity) async -> Result<Quote, FetchError> {
        let request = PluginOutputRules.Request(symbol: symbol, currency: currency, plugin: plugin)
        switch await worker.fetch(symbol: symbol, currency: currency, timeout: timeout) {
        case .failure(let failure):
            return .failure(FetchError(symbol: symbol, .worker(failure)))
        case .success(.timedOut(let waitingOnNetwork)):
            return .failure(FetchError(symbol: symbol, Self.timeout(after: timeout, plugin: plugin.label, waitingOnNetwork: waitingOnNetwork)))
        case .success(.replied(.called(let outcome))):
            // The worker's plugin can write this frame itself: it gets the same checks as an in-process answer.
            return PluginOutputRules.quote(outcome, for: request)
        case .success(.replied(.noSuchFetcher)):
            return .failure(FetchError(symbol: symbol, .noFetcherInWorker))
        case .success(.replied(.notCalled(let error))):
            return .failure(FetchError(symbol: symbol, .notCalled(error)))
        }
    }

    /// A fetch that outlived its timeout: the network's fault while the
    /// plugin waited on an `http_get`, the plugin's otherwise.
    static func timeout(after timeout: Duration, plugin: String, waitingOnNetwork: Bool) -> FetchError.Kind {
        waitingOnNetwork ? .timedOut(after: timeout, plugin: plugin) : .neverAnswered(after: timeout, plugin: plugin)
    }

    /// Calls the plugin's `fetch` on a thread of its own and waits, at most
    /// `timeout`, for its completion.
    private func price(
        in currency: String, timeout: Duration, registration: FetcherRegistrations.Registration, session: PluginSession, plugin: PluginIdentity
    ) async -> Result<Quote, FetchError> {
        let pending = Self.pending
        let request = PluginOutputRules.Request(symbol: symbol, currency: currency, plugin: plugin)
        session.allowance.fetchStarted()
        let timer = TimerBox()
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Quote, FetchError>, Never>) in
            let token = pending.begin(plugin: plugin.name) { outcome in
                continuation.resume(returning: PluginOutputRules.quote(outcome, for: request))
            }
            timer.task = Task { [symbol, plugin] in
                try? await Task.sleep(for: timeout)
                guard pending.cancel(token: token) else { return }
                let cause = Self.timeout(after: timeout, plugin: plugin.label, waitingOnNetwork: session.isWaitingOnNetwork)
                continuation.resume(returning: .failure(FetchError(symbol: symbol, cause)))
            }
            do throws(SystemError) {
                // The plugin may block the calling thread: never let it be one the host needs.
                try FetchCall.start(registration, currency: currency, timeoutMilliseconds: timeout.timeoutMilliseconds, token: token)
            } catch {
                if pending.cancel(token: token) { continuation.resume(returning: .failure(FetchError(symbol: request.symbol, .notCalled(error)))) }
            }
        }
        timer.task?.cancel()
        return answer
    }

    /// The process's fetches waiting on in-process plugins, whose stray
    /// callbacks the host's log reports.
    private static let pending: PendingFetches = {
        let logger = Logger(label: "host")
        PendingFetches.shared.reportStrays { stray in
            logger.log(level: stray.isWarning ? .warning : .debug, "\(stray)")
        }
        return PendingFetches.shared
    }()
}

/// Holds the timeout task so it can be cancelled once the plugin answers.
private final class TimerBox: @unchecked Sendable {
    // @unchecked: written once inside the continuation body and read after
    // the continuation resumes, which happens-after that write.
    var task: Task<Void, Never>?
}
