import Synchronization

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
        _ = waiting.withLock { $0.removeValue(forKey: thread) }
    }
}
