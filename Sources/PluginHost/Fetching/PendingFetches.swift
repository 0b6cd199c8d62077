import Logging
import PluginABI
import Synchronization

/// Fetches waiting for a plugin's completion callback.
///
/// A plugin gets a token as its `completion_context`: 64 random bits, issued
/// for one fetch of one plugin and never a pointer into host memory. The
/// first answer for a token resumes the waiting task. Any other call finds
/// nothing and is logged and ignored: a second call, a call after the
/// timeout, or a token the plugin made up to answer another plugin's fetch,
/// which it has one chance in 2⁶⁴ per try to guess.
final class PendingFetches: Sendable {
    /// The process's one table; the C callback has no other way to find it.
    static let shared = PendingFetches()

    typealias Answer = Result<Quote, FetchError>

    private struct Waiter {
        let request: PluginOutputRules.Request
        let continuation: CheckedContinuation<Answer, Never>
    }

    private struct State {
        var waiting: [UInt64: Waiter] = [:]
        /// Recently finished tokens, so a stray answer can name its plugin.
        var finished: [UInt64: String] = [:]
        var finishedOrder: [UInt64] = []
        /// Callbacks with a token the host never issued.
        var forged = 0
    }

    private let state = Mutex(State())
    private let logger = Logger(label: "host")

    /// Remembers this many finished tokens for diagnostics.
    private static let finishedMemory = 1024

    /// Registers a waiter and returns its token, never 0 (NULL).
    func begin(_ request: PluginOutputRules.Request, continuation: CheckedContinuation<Answer, Never>) -> UInt64 {
        state.withLock { state in
            var token: UInt64
            repeat {
                // SystemRandomNumberGenerator: getrandom(2), not guessable from earlier tokens.
                token = UInt64.random(in: 1...UInt64.max)
            } while state.waiting[token] != nil || state.finished[token] != nil
            state.waiting[token] = Waiter(request: request, continuation: continuation)
            return token
        }
    }

    /// Resumes the waiter for `token` with the plugin's result, which is read
    /// and checked here, while the plugin still owns it.
    func complete(token: UInt64, with result: UnsafePointer<pb_fetch_result>?) {
        guard let waiter = take(token) else {
            if let plugin = state.withLock({ $0.finished[token] }) {
                logger.warning("ignored a fetch callback from \(plugin) that came after the fetch had already finished (a second call or a call after the timeout)")
            } else {
                // One warning says it all; a forger calling in a loop must not flood the terminal.
                let count = state.withLock { state in
                    state.forged += 1
                    return state.forged
                }
                if count == 1 {
                    logger.warning("ignored a fetch callback whose completion context the host never issued: a plugin forged or corrupted it; later ones are logged with -v")
                } else {
                    logger.debug("ignored forged fetch callback number \(count)")
                }
            }
            return
        }
        waiter.continuation.resume(returning: Self.answer(from: result, for: waiter.request))
    }

    /// Resumes the waiter for `token` with a host-side failure, e.g. a timeout.
    /// Does nothing when the plugin answered first.
    func fail(token: UInt64, with error: FetchError) {
        take(token)?.continuation.resume(returning: .failure(error))
    }

    private func take(_ token: UInt64) -> Waiter? {
        state.withLock { state in
            guard let waiter = state.waiting.removeValue(forKey: token) else { return nil }
            state.finished[token] = waiter.request.plugin.name
            state.finishedOrder.append(token)
            if state.finishedOrder.count > Self.finishedMemory {
                state.finished[state.finishedOrder.removeFirst()] = nil
            }
            return waiter
        }
    }

    /// Copies a plugin-owned result into Swift values before the callback
    /// returns, through the same checks an isolated worker's answer gets.
    private static func answer(from result: UnsafePointer<pb_fetch_result>?, for request: PluginOutputRules.Request) -> Answer {
        guard let result, result.pointee.struct_size >= UInt32(MemoryLayout<pb_fetch_result>.size) else {
            return .failure(FetchError(symbol: request.symbol, .plugin(message: "\(request.plugin.name) passed a NULL or undersized pb_fetch_result")))
        }
        do throws(PluginOutputRules.Violation) {
            return PluginOutputRules.quote(try PluginOutputRules.answer(from: result.pointee), for: request)
        } catch {
            return .failure(FetchError(symbol: request.symbol, .invalidAnswer(plugin: request.plugin.name, violation: error)))
        }
    }
}
