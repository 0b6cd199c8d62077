import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Which thread waits for which registration's factory, to turn a cross-thread cycle into an error.
///
/// Two threads each building a singleton that needs the other's would wait on
/// each other forever. Before a thread waits on a registration's creation
/// lock, it follows the chain "the creator of what I wait for waits for …";
/// reaching itself means a cycle, reported instead of waiting. Used only when
/// a thread is about to block, never on the fast path.
enum CreationWaits {
    private static let waiting = Mutex<[UInt: Registration]>([:])

    /// Records that `thread` will wait for `registration`.
    ///
    /// - Returns: false, recording nothing, if waiting would deadlock.
    static func willWait(_ thread: UInt, for registration: Registration) -> Bool {
        waiting.withLock { waiting in
            // A thread blocks in one wait at a time, and unrecords it before it does anything else.
            assert(waiting[thread] == nil, "a thread records a second wait before the first ended")
            var awaited = registration
            // Bounded, in case the map changes shape under a long chain.
            for _ in 0..<1_000 {
                let creator = awaited.creator.load(ordering: .acquiring)
                if creator == 0 { break }
                if creator == thread { return false }
                guard let next = waiting[creator] else { break }
                awaited = next
            }
            waiting[thread] = registration
            return true
        }
    }

    /// Records that `thread` no longer waits.
    static func didWait(_ thread: UInt) {
        let recorded = waiting.withLock { $0.removeValue(forKey: thread) }
        assert(recorded != nil, "a thread ended a wait it never recorded")
    }

    /// How many threads are recorded as waiting, in every container; for tests.
    static var count: Int {
        waiting.withLock { $0.count }
    }

    /// Whether `thread` is recorded as waiting, for the debug checks of ``ResolutionState``.
    static func isWaiting(_ thread: UInt) -> Bool {
        waiting.withLock { $0[thread] != nil }
    }

    /// Runs `body` holding `registration`'s creation lock, waiting at most `limit` for it.
    ///
    /// `Mutex` has no timed lock, so this polls, with pauses that grow from
    /// 20 µs to 1 ms: a wait with a limit is the rare case of a creation in
    /// progress on another thread, and the pauses bound its cost to a few
    /// thousand wake-ups a second at worst.
    ///
    /// - Parameters:
    ///   - thread: The waiting thread, recorded by ``willWait(_:for:)``; its record is dropped on a timeout.
    ///   - timedOut: The error to throw once `limit` has passed without the lock.
    static func withCreationLock(
        of registration: Registration, waitingAtMost limit: Duration, thread: UInt,
        timedOut: () -> ResolutionError, _ body: () throws(ResolutionError) -> Void
    ) throws(ResolutionError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        var pause: UInt32 = 20
        while true {
            let ran = try registration.creationLock.withLockIfAvailable { _ throws(ResolutionError) -> Bool in
                try body()
                return true
            }
            if ran != nil { return }
            if clock.now >= deadline {
                didWait(thread)
                throw timedOut()
            }
            usleep(pause)
            pause = Swift.min(pause * 2, 1_000)
        }
    }
}
