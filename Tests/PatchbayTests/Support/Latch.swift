import Foundation

/// A gate that stays open once opened: every wait after ``open()`` passes at once.
///
/// A factory that must not go on until another thread reaches some point waits
/// on one. Unlike a semaphore's single signal, the open state is not used up,
/// so a second run of the same factory does not wait in vain.
final class Latch: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Opens the latch for every wait, past and future.
    func open() {
        semaphore.signal()
    }

    /// Returns once the latch is open.
    ///
    /// - Parameter limit: Far above what a loaded machine needs (a thread starting and reaching the
    ///   latch takes milliseconds): this catches a hang, not slowness.
    /// - Throws: ``FactoryFailure`` if the latch is still closed after `limit`.
    func wait(atMost limit: DispatchTimeInterval = .seconds(30)) throws(FactoryFailure) {
        guard semaphore.wait(timeout: .now() + limit) == .success else {
            throw FactoryFailure(reason: "the latch was not opened within \(limit), at least 10 times the slowest idle run: a thread is stuck")
        }
        // Hands the opening on to the next waiter.
        semaphore.signal()
    }
}
