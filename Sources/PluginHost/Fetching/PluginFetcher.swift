import PluginABI

/// A fetcher that a plugin registered, callable from Swift.
///
/// This is what the host's registry holds under each symbol. Calling it
/// crosses the C ABI: the plugin's `fetch` starts the work and answers
/// through a completion callback, so no thread waits.
public struct PluginFetcher: Sendable {
    /// The ticker, e.g. "ETH".
    public let symbol: String
    /// A human-readable name, e.g. "Ethereum".
    public let displayName: String
    /// The plugin that registered it.
    public let plugin: PluginIdentity

    let context: OpaqueContext
    let fetch: FetchFunction

    /// Fetches the current price.
    ///
    /// Returns after `timeout` at the latest, even when the plugin never calls
    /// back; a late answer is then ignored.
    /// - Parameters:
    ///   - currency: The quote currency, e.g. "USD".
    ///   - timeout: How long to wait for the plugin's answer.
    /// - Returns: The plugin's quote, or why there is none.
    public func price(in currency: String, timeout: Duration) async -> Result<Quote, FetchError> {
        let pending = PendingFetches.shared
        let symbol = self.symbol
        let plugin = self.plugin
        let timer = TimerBox()
        let answer = await withCheckedContinuation { continuation in
            let token = pending.begin(symbol: symbol, plugin: plugin, continuation: continuation)
            timer.task = Task {
                try? await Task.sleep(for: timeout)
                pending.fail(token: token, with: FetchError(symbol: symbol, .timedOut(after: timeout, plugin: plugin.name)))
            }
            currency.withCString { currency in
                var request = pb_fetch_request(
                    struct_size: UInt32(MemoryLayout<pb_fetch_request>.size),
                    currency: currency,
                    timeout_ms: timeout.clampedMilliseconds
                )
                fetch(context.pointer, &request, Self.completion, UnsafeMutableRawPointer(bitPattern: token))
            }
        }
        timer.task?.cancel()
        return answer
    }

    /// The `pb_fetch_completion_fn` every fetch gets: the token finds the waiter.
    private static let completion: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_fetch_result>?) -> Void = { token, result in
        PendingFetches.shared.complete(token: UInt(bitPattern: token), with: result)
    }
}

/// Holds the timeout task so it can be cancelled once the plugin answers.
private final class TimerBox: @unchecked Sendable {
    // @unchecked: written once inside the continuation body and read after
    // the continuation resumes, which happens-after that write.
    var task: Task<Void, Never>?
}
