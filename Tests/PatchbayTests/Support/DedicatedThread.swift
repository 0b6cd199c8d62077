import Foundation
import Synchronization

/// Runs blocking work on a thread of its own, so that an async test can await
/// it without holding a thread of the cooperative pool.
///
/// A test that blocks (on a semaphore, a latch, a lock the container holds, or
/// a thread it joins) does so here: on two cores the pool has two threads, and
/// two tests blocking them would stall every other test until their waits time out.
enum DedicatedThread {
    /// Runs `body` on a new thread.
    ///
    /// - Returns: What `body` returned.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Runs `body` on a new thread, and rethrows what it throws.
    ///
    /// - Returns: What `body` returned.
    static func run<Value: Sendable>(throwing body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await run { Result { try body() } }.get()
    }
}

/// A thread started at once, whose result another thread waits for with ``join(atMost:)``.
///
/// For tests that need two threads at the same time, started without the
/// cooperative pool (an `async let` child task may wait for a pool thread).
final class JoinableThread<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Value) {
        Thread {
            let value = body()
            self.result.withLock { $0 = value }
            self.finished.signal()
        }.start()
    }

    /// Waits for the thread's result; call it only off the cooperative pool, such as inside ``DedicatedThread``.
    ///
    /// - Parameter limit: Catches a hang, far above what a loaded machine needs.
    /// - Returns: What the thread returned, or nil if it has not returned within `limit`.
    func join(atMost limit: DispatchTimeInterval = .seconds(60)) -> Value? {
        guard finished.wait(timeout: .now() + limit) == .success else { return nil }
        finished.signal()  // a second join returns at once
        return result.withLock { $0 }
    }
}
