import HostShared
import PluginABI

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

    /// Where the fetch runs.
    private let backend: Backend

    private enum Backend: Sendable {
        /// The plugin is loaded in this process.
        case inProcess(context: OpaqueContext, fetch: FetchFunction, session: PluginSession)
        /// The plugin runs in an isolated worker (`--isolate`).
        case isolated(WorkerConnection)
        /// The plugin is known from a listing and loads on the first fetch.
        case onDemand(OnDemandPlugin)
    }

    init(symbol: String, displayName: String, plugin: PluginIdentity, context: OpaqueContext, fetch: FetchFunction, session: PluginSession) {
        self.symbol = symbol
        self.displayName = displayName
        self.plugin = plugin
        self.backend = .inProcess(context: context, fetch: fetch, session: session)
    }

    init(symbol: String, displayName: String, plugin: PluginIdentity, worker: WorkerConnection) {
        self.symbol = symbol
        self.displayName = displayName
        self.plugin = plugin
        self.backend = .isolated(worker)
    }

    init(symbol: String, displayName: String, plugin: OnDemandPlugin) {
        self.symbol = symbol
        self.displayName = displayName
        self.plugin = plugin.identity
        self.backend = .onDemand(plugin)
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
        case .inProcess(let context, let fetch, let session):
            await price(in: currency, timeout: timeout, context: context, fetch: fetch, session: session)
        case .isolated(let worker):
            await price(in: currency, timeout: timeout, worker: worker)
        case .onDemand(let plugin):
            await price(in: currency, timeout: timeout, loading: plugin)
        }
    }

    /// Loads the plugin, if this run has not yet, and asks the fetcher it
    /// registered. Loading does not count against `timeout`: a worker's
    /// load has its own limit.
    private func price(in currency: String, timeout: Duration, loading plugin: OnDemandPlugin) async -> Result<Quote, FetchError> {
        switch await plugin.fetchers() {
        case .failure(let failure):
            return .failure(FetchError(symbol: symbol, .plugin(message: "\(plugin.identity.name) (\(plugin.path)) could not be loaded: \(failure.error.message(naming: plugin.names))")))
        case .success(let fetchers):
            guard let fetcher = fetchers.first(where: { $0.symbol == symbol }) else {
                return .failure(FetchError(symbol: symbol, .plugin(message: "\(plugin.identity.name) (\(plugin.path)) no longer registers \(symbol)")))
            }
            return await fetcher.price(in: currency, timeout: timeout)
        }
    }

    /// Asks the worker; a crash, exit or hang of the worker becomes one
    /// error naming the plugin and the signal or status.
    private func price(in currency: String, timeout: Duration, worker: WorkerConnection) async -> Result<Quote, FetchError> {
        switch await worker.fetch(symbol: symbol, currency: currency, timeout: timeout) {
        case .failure(let failure):
            return .failure(FetchError(symbol: symbol, .worker(failure)))
        case .success(let reply):
            // The worker's plugin can write this frame itself: it gets the same checks as an in-process answer.
            let answer = PluginInput.Answer(base: reply.quote?.base, currency: reply.quote?.currency, amount: reply.quote?.amount, error: reply.error)
            return PluginInput.quote(answer, for: PluginInput.Request(symbol: symbol, currency: currency, plugin: plugin))
        }
    }

    private func price(
        in currency: String, timeout: Duration, context: OpaqueContext, fetch: FetchFunction, session: PluginSession
    ) async -> Result<Quote, FetchError> {
        let pending = PendingFetches.shared
        let request = PluginInput.Request(symbol: symbol, currency: currency, plugin: plugin)
        session.allowance.fetchStarted()
        let timer = TimerBox()
        let answer = await withCheckedContinuation { continuation in
            let token = pending.begin(request, continuation: continuation)
            timer.task = Task { [symbol, plugin] in
                try? await Task.sleep(for: timeout)
                let cause: FetchError.Kind =
                    session.isWaitingOnNetwork
                    ? .timedOut(after: timeout, plugin: plugin.name) : .neverAnswered(after: timeout, plugin: plugin.name)
                pending.fail(token: token, with: FetchError(symbol: symbol, cause))
            }
            let milliseconds = timeout.timeoutMilliseconds
            do throws(PluginCallThread.StartError) {
                // The plugin may block the calling thread: never let it be one the host needs.
                try PluginCallThread.start {
                    currency.withCString { currency in
                        var request = pb_fetch_request(
                            struct_size: UInt32(MemoryLayout<pb_fetch_request>.size),
                            currency: currency,
                            timeout_ms: milliseconds
                        )
                        fetch(context.pointer, &request, Self.completion, UnsafeMutableRawPointer(bitPattern: UInt(token)))
                    }
                }
            } catch {
                pending.fail(token: token, with: FetchError(symbol: request.symbol, .plugin(message: "\(error)")))
            }
        }
        timer.task?.cancel()
        return answer
    }

    /// The `pb_fetch_completion_fn` every fetch gets: the token finds the waiter.
    private static let completion: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_fetch_result>?) -> Void = { token, result in
        PendingFetches.shared.complete(token: UInt64(UInt(bitPattern: token)), with: result)
    }
}

/// Holds the timeout task so it can be cancelled once the plugin answers.
private final class TimerBox: @unchecked Sendable {
    // @unchecked: written once inside the continuation body and read after
    // the continuation resumes, which happens-after that write.
    var task: Task<Void, Never>?
}
