import Logging
import PluginABI
import Synchronization

/// Fetches waiting for a plugin's completion callback.
///
/// A plugin gets a numeric token as its `completion_context`, never a
/// pointer into host memory. The first answer for a token resumes the
/// waiting task; an answer for a token that already finished (a second call,
/// or a call after the timeout) finds nothing, is logged, and is ignored.
/// That is what makes misbehaving callbacks harmless.
final class PendingFetches: Sendable {
    /// The process's one table; the C callback has no other way to find it.
    static let shared = PendingFetches()

    typealias Answer = Result<Quote, FetchError>

    private struct Waiter {
        let symbol: String
        let plugin: PluginIdentity
        let continuation: CheckedContinuation<Answer, Never>
    }

    private struct State {
        var nextToken: UInt = 1
        var waiting: [UInt: Waiter] = [:]
        /// Recently finished tokens, so a stray answer can name its plugin.
        var finished: [UInt: String] = [:]
        var finishedOrder: [UInt] = []
    }

    private let state = Mutex(State())
    private let logger = Logger(label: "host")

    /// Remembers this many finished tokens for diagnostics.
    private static let finishedMemory = 1024

    /// Registers a waiter and returns its token.
    func begin(symbol: String, plugin: PluginIdentity, continuation: CheckedContinuation<Answer, Never>) -> UInt {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.waiting[token] = Waiter(symbol: symbol, plugin: plugin, continuation: continuation)
            return token
        }
    }

    /// Resumes the waiter for `token` with the plugin's result.
    func complete(token: UInt, with result: UnsafePointer<pb_fetch_result>?) {
        guard let waiter = take(token) else {
            let plugin = state.withLock { $0.finished[token] } ?? "a plugin"
            logger.warning("ignored a fetch callback from \(plugin) that came after the fetch had already finished (a second call or a call after the timeout)")
            return
        }
        waiter.continuation.resume(returning: Self.answer(from: result, for: waiter))
    }

    /// Resumes the waiter for `token` with a host-side failure, e.g. a timeout.
    /// Does nothing when the plugin answered first.
    func fail(token: UInt, with error: FetchError) {
        take(token)?.continuation.resume(returning: .failure(error))
    }

    private func take(_ token: UInt) -> Waiter? {
        state.withLock { state in
            guard let waiter = state.waiting.removeValue(forKey: token) else { return nil }
            state.finished[token] = waiter.plugin.name
            state.finishedOrder.append(token)
            if state.finishedOrder.count > Self.finishedMemory {
                state.finished[state.finishedOrder.removeFirst()] = nil
            }
            return waiter
        }
    }

    /// Copies a plugin-owned result into Swift values before the callback returns.
    private static func answer(from result: UnsafePointer<pb_fetch_result>?, for waiter: Waiter) -> Answer {
        let plugin = waiter.plugin.name
        guard let result, result.pointee.struct_size >= UInt32(MemoryLayout<pb_fetch_result>.size) else {
            return .failure(FetchError(symbol: waiter.symbol, .plugin(message: "\(plugin) passed a NULL or undersized pb_fetch_result")))
        }
        let value = result.pointee
        if let error = value.error {
            return .failure(FetchError(symbol: waiter.symbol, .plugin(message: String(cString: error))))
        }
        guard let amount = value.amount.map({ String(cString: $0) }), !amount.isEmpty else {
            return .failure(FetchError(symbol: waiter.symbol, .emptyResult(plugin: plugin)))
        }
        return .success(
            Quote(
                symbol: waiter.symbol,
                base: value.base.map { String(cString: $0) } ?? waiter.symbol,
                currency: value.currency.map { String(cString: $0) } ?? "",
                amount: amount,
                plugin: waiter.plugin
            )
        )
    }
}
