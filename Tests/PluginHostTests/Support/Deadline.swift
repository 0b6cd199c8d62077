import Testing

/// A time limit on one awaited piece of work, so that a test whose plugin
/// never answers fails in seconds at the line that waited, instead of
/// hanging the whole run.
///
/// Swift Testing's `.timeLimit` counts in whole minutes, and when it passes
/// it only cancels the test: work that ignores cancellation (a continuation a
/// plugin never resumes) still keeps the test, and so the run, waiting.
/// Racing the work against a clock does not wait for the loser, so the test
/// moves on even then. The losing work is cancelled and left to finish, or
/// not, on its own; no thread is blocked either way.
enum Deadline {
    /// Why an awaited piece of work was abandoned.
    struct Expired: Error, CustomStringConvertible {
        /// What was awaited, e.g. "LATE's price".
        let what: String
        let limit: Duration

        var description: String {
            "\(what) did not finish within \(limit), at least 10 times its slowest idle run: a plugin or a child process is probably hanging"
        }
    }

    /// Awaits `work`, but for no longer than `limit`; on expiry records an
    /// issue at the caller's line and throws ``Expired``.
    ///
    /// ```swift
    /// let quote = try await Deadline.within(.seconds(30), "DOGE's price") {
    ///     await registry.fetcher(for: "DOGE").price(in: "USD", timeout: .seconds(5))
    /// }
    /// ```
    /// - Parameters:
    ///   - limit: Far above what the work needs on a loaded machine: this
    ///     catches hangs, not slowness.
    ///   - what: Names the awaited work in the issue.
    /// - Throws: ``Expired``, `CancellationError` when the test is cancelled
    ///   (its `.timeLimit`), or whatever `work` throws.
    static func within<T: Sendable>(
        _ limit: Duration, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let value = try await race(limit, work) else {
            let expired = Expired(what: what, limit: limit)
            Issue.record(Comment(rawValue: expired.description), sourceLocation: sourceLocation)
            throw expired
        }
        return value
    }

    /// `work`'s value, or nil when `limit` passes first. Returns as soon as
    /// either happens, without waiting for the other.
    /// - Throws: Whatever `work` throws, or `CancellationError` when the
    ///   calling task is cancelled first.
    static func race<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        // The first of the two to yield is the outcome; the buffer keeps
        // only that one. nil stands for the clock.
        let (outcomes, outcome) = AsyncThrowingStream<T?, any Error>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let worker = Task {
            do {
                outcome.yield(try await work())
            } catch {
                outcome.finish(throwing: error)
            }
        }
        let clock = Task {
            try? await Task.sleep(for: limit)
            outcome.yield(nil)
        }
        defer {
            worker.cancel()
            clock.cancel()
            outcome.finish()
        }
        // A cancelled caller ends the stream, and `next()` returns nil.
        var iterator = outcomes.makeAsyncIterator()
        guard let first = try await iterator.next() else { throw CancellationError() }
        return first
    }
}
