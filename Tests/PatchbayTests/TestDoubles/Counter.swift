import Synchronization

/// A thread-safe count of how often something happened, such as a factory running.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }

    var count: Int { value.withLock { $0 } }
}
