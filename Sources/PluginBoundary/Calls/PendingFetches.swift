import PluginABI
import Synchronization

/// Fetches waiting for a plugin's completion callback, in the host or in a
/// worker.
///
/// A plugin gets a token as its `completion_context`: 64 random bits, issued
/// for one fetch of one plugin and never a pointer into the process's
/// memory. The first answer for a token is delivered to whoever began the
/// fetch. Any other call finds nothing and goes to the stray handler: a
/// second call, a call after the fetch was cancelled (timed out), or a token
/// the plugin made up to answer another plugin's fetch, which it has one
/// chance in 2⁶⁴ per try to guess.
package final class PendingFetches: Sendable {
    /// The process's one table; the C callback has no other way to find it.
    package static let shared = PendingFetches()

    /// Receives one fetch's outcome, exactly once.
    package typealias Deliver = @Sendable (FetchCallOutcome) -> Void

    /// A completion call that matched no waiting fetch.
    package enum Stray: Sendable, Equatable {
        /// A plugin answered a fetch that had already finished.
        case late(plugin: String)
        /// A call with a token never issued; `count` such calls so far.
        case forged(count: Int)
    }

    private struct Waiter {
        let plugin: String
        let deliver: Deliver
    }

    private struct State {
        var waiting: [UInt64: Waiter] = [:]
        /// Recently finished tokens, so a stray answer can name its plugin.
        var finished: [UInt64: String] = [:]
        var finishedOrder: [UInt64] = []
        /// Callbacks with a token never issued.
        var forged = 0
        /// Fetch calls that have not returned yet, by token.
        var calling: Set<UInt64> = []
        /// Of those, the ones whose plugin has answered: they are about to return.
        var answeredCalling: Set<UInt64> = []
        var onStray: (@Sendable (Stray) -> Void)?
    }

    private let state = Mutex(State())

    /// Remembers this many finished tokens for diagnostics.
    private static let finishedMemory = 1024

    /// Sends every later stray call to `handler`, which logs it; without
    /// one, strays are dropped silently.
    package func reportStrays(to handler: @escaping @Sendable (Stray) -> Void) {
        state.withLock { $0.onStray = handler }
    }

    /// Registers a fetch of `plugin` and returns its token, never 0 (NULL).
    package func begin(plugin: String, deliver: @escaping Deliver) -> UInt64 {
        state.withLock { state in
            var token: UInt64
            repeat {
                // SystemRandomNumberGenerator: getrandom(2), not guessable from earlier tokens.
                token = UInt64.random(in: 1...UInt64.max)
            } while state.waiting[token] != nil || state.finished[token] != nil
            state.waiting[token] = Waiter(plugin: plugin, deliver: deliver)
            return token
        }
    }

    /// Delivers the plugin's result for `token`, read and checked here,
    /// while the plugin still owns it.
    package func complete(token: UInt64, with result: UnsafePointer<pb_fetch_result>?) {
        guard let waiter = take(token) else {
            let (stray, handler) = state.withLock { state -> (Stray, (@Sendable (Stray) -> Void)?) in
                if let plugin = state.finished[token] { return (.late(plugin: plugin), state.onStray) }
                state.forged += 1
                return (.forged(count: state.forged), state.onStray)
            }
            handler?(stray)
            return
        }
        waiter.deliver(FetchCallOutcome(reading: result))
    }

    /// Ends the fetch for `token` without the plugin's answer, e.g. at its timeout.
    /// - Returns: True when it was still waiting: the caller answers it
    ///   instead. False when the plugin answered first.
    package func cancel(token: UInt64) -> Bool {
        take(token, answered: false) != nil
    }

    /// Whether a plugin's `fetch` that has answered has still not returned.
    ///
    /// Such a call is about to return, and may still call back (a second
    /// answer, which is logged): a run waits a moment for it before it
    /// exits, so the log line is not lost. A call that never answered (one
    /// that timed out) is not waited for.
    package var hasAnsweredCallsRunning: Bool {
        state.withLock { !$0.answeredCalling.isEmpty }
    }

    /// Marks the fetch call for `token` as running, until ``callReturned(token:)``.
    package func callStarted(token: UInt64) {
        state.withLock { _ = $0.calling.insert(token) }
    }

    /// Marks the fetch call for `token` as returned.
    package func callReturned(token: UInt64) {
        state.withLock { state in
            state.calling.remove(token)
            state.answeredCalling.remove(token)
        }
    }

    private func take(_ token: UInt64, answered: Bool = true) -> Waiter? {
        state.withLock { state in
            guard let waiter = state.waiting.removeValue(forKey: token) else { return nil }
            if answered, state.calling.contains(token) { state.answeredCalling.insert(token) }
            state.finished[token] = waiter.plugin
            state.finishedOrder.append(token)
            if state.finishedOrder.count > Self.finishedMemory {
                state.finished[state.finishedOrder.removeFirst()] = nil
            }
            return waiter
        }
    }

    /// The `pb_fetch_completion_fn` every fetch gets: the token finds the waiter.
    package static let completion: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_fetch_result>?) -> Void = { token, result in
        PendingFetches.shared.complete(token: UInt64(UInt(bitPattern: token)), with: result)
    }
}

extension PendingFetches.Stray: CustomStringConvertible {
    /// The line the log gets.
    package var description: String {
        switch self {
        case .late(let plugin):
            "ignored a fetch callback from \(plugin) that came after the fetch had already finished (a second call or a call after the timeout)"
        case .forged(let count) where count == 1:
            "ignored a fetch callback whose completion context the host never issued: a plugin forged or corrupted it; later ones are logged with -v"
        case .forged(let count):
            "ignored forged fetch callback number \(count)"
        }
    }

    /// Whether it is worth a warning; later forged calls are only debug lines,
    /// so a forger calling in a loop cannot flood the terminal.
    package var isWarning: Bool {
        if case .forged(let count) = self { count == 1 } else { true }
    }
}

/// What one call of a plugin's `fetch` produced, read while the plugin still
/// owned it.
package enum FetchCallOutcome: Sendable, Equatable {
    /// The plugin's fields, each bounded and valid UTF-8; not yet checked as a quote.
    case answered(PluginOutputRules.Answer)
    /// A field of the answer broke a rule while being read.
    case unreadable(PluginOutputRules.Violation)
    /// The plugin passed a NULL or undersized `pb_fetch_result`.
    case malformed

    /// Reads a plugin-owned result into Swift values before the callback returns.
    init(reading result: UnsafePointer<pb_fetch_result>?) {
        guard let result, UnsafeRawPointer(result).load(as: UInt32.self) >= UInt32(MemoryLayout<pb_fetch_result>.size) else {
            self = .malformed
            return
        }
        do throws(PluginOutputRules.Violation) {
            self = .answered(try PluginOutputRules.answer(from: result.pointee))
        } catch {
            self = .unreadable(error)
        }
    }
}

/// One call of a plugin's `fetch`, answered through ``PendingFetches``.
package enum FetchCall {
    /// Calls `fetch` on a thread of its own: the plugin may block whatever
    /// thread calls it.
    /// - Parameters:
    ///   - registration: The fetcher.
    ///   - currency: The quote currency asked for.
    ///   - timeoutMilliseconds: The plugin's `timeout_ms`.
    ///   - token: From ``PendingFetches/begin(plugin:deliver:)``; its
    ///     `completion_context`.
    /// - Throws: ``PluginCallThread/startError(_:)`` when no thread could be had;
    ///   the plugin was not called.
    package static func start(
        _ registration: FetcherRegistrations.Registration, currency: String, timeoutMilliseconds: UInt32, token: UInt64
    ) throws(SystemError) {
        let (context, fetch) = (registration.context, registration.fetch)
        PendingFetches.shared.callStarted(token: token)
        do {
            try PluginCallThread.start {
                currency.withCString { currency in
                    var request = pb_fetch_request(struct_size: UInt32(MemoryLayout<pb_fetch_request>.size), currency: currency, timeout_ms: timeoutMilliseconds)
                    fetch(context.pointer, &request, PendingFetches.completion, UnsafeMutableRawPointer(bitPattern: UInt(token)))
                }
                PendingFetches.shared.callReturned(token: token)
            }
        } catch {
            PendingFetches.shared.callReturned(token: token)
            throw error
        }
    }
}
