import Synchronization

/// At most ``capacity`` holders at once; the others wait their turn, first
/// come first served, without blocking a thread.
///
/// A place taken with ``acquire()`` is given back with ``release()``, which
/// hands it straight to the first waiter, if any: a later caller can never
/// overtake one already waiting. Waiting does not end on cancellation: a
/// cancelled task still gets its place in turn (and must give it back), so
/// a place is never lost to a waiter that left.
///
/// ```swift
/// let slots = AsyncSlots(capacity: 2)
/// await slots.acquire()
/// defer { slots.release() }
/// ```
///
/// The host's workers of plugins nobody vouched for take places here
/// (`WorkerSlots`), and so do the child processes the tests start.
package final class AsyncSlots: Sendable {
    /// How many hold a place at most at once.
    package let capacity: Int

    private struct State {
        var inUse = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Places for `capacity` holders at once (at least one).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Takes a place, waiting until one is free.
    /// - Complexity: O(1) when a place is free; a waiter is queued in amortized O(1).
    package func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Deciding and queueing under one lock: a place given back meanwhile goes to this caller, not to nobody.
            let granted = state.withLock { state -> Bool in
                guard state.inUse < capacity else {
                    state.waiting.append(continuation)
                    return false
                }
                state.inUse += 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a place back: to the first caller waiting, if any.
    /// - Complexity: O(*w*) for *w* callers waiting.
    package func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            // The place passes to the next caller as it is: the count in use stays.
            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
            state.inUse -= 1
            return nil
        }
        next?.resume()
    }

    /// How many callers wait for a place now: lets a test see a queue form without sleeping.
    package var waitingCount: Int { state.withLock { $0.waiting.count } }
}
