import Foundation

/// Runs blocking work on a thread of its own, so that an async test can await
/// it without holding a thread of the cooperative pool.
enum DedicatedThread {
    /// Runs `body` on a new thread.
    ///
    /// - Returns: What `body` returned.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
