import Glibc
import Synchronization

/// The plugin-call threads that finished their call and wait, a while, for
/// another: a call goes to one of them before a new thread is started.
///
/// A worker's PID namespace caps its tasks by `pid_max`, and the kernel
/// hands out PIDs in a cycle that, once past 300, reuses only those above
/// 300: a worker that started a fresh thread for every call (a fetch, then
/// its HTTP answer) could make about 150 fetches in its life, and then none.
/// Reused threads take no new PID, so a worker serves any number of fetches
/// with as many threads as run at once.
final class IdleCallThreads: Sendable {
    /// One thread waiting for a call: its semaphore, and the call handed to it.
    final class Slot: @unchecked Sendable {
        // @unchecked: `call` is written by the thread that takes the slot off
        // the idle list, before `sem_post`, and read by the slot's own thread
        // after `sem_wait` returns, which happens-after that post.
        var call: (@Sendable () -> Void)?
        let semaphore: UnsafeMutablePointer<sem_t>

        init() {
            semaphore = .allocate(capacity: 1)
            sem_init(semaphore, 0, 0)
        }

        deinit {
            sem_destroy(semaphore)
            semaphore.deallocate()
        }
    }

    /// The process's idle threads.
    static let shared = IdleCallThreads()

    /// How long a thread waits for another call before it ends.
    static let idleSeconds = 10

    private let idle = Mutex<[Slot]>([])

    /// Hands `call` to a waiting thread, if there is one.
    /// - Returns: false when none waits; `call` has not run.
    func handOff(_ call: @escaping @Sendable () -> Void) -> Bool {
        guard let slot = idle.withLock({ $0.popLast() }) else { return false }
        slot.call = call
        sem_post(slot.semaphore)
        return true
    }

    /// Waits, on the calling thread, for the next call handed off.
    /// - Parameter slot: The calling thread's slot, made once per thread.
    /// - Returns: The call, or nil after ``idleSeconds`` without one.
    func next(on slot: Slot) -> (@Sendable () -> Void)? {
        idle.withLock { $0.append(slot) }
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += Self.idleSeconds
        while sem_timedwait(slot.semaphore, &deadline) != 0 {
            guard errno == ETIMEDOUT else { continue }
            // Still on the list: nobody took it, so the thread may end. Else a call is on its way.
            let stillIdle = idle.withLock { slots in
                guard let index = slots.firstIndex(where: { $0 === slot }) else { return false }
                slots.remove(at: index)
                return true
            }
            if stillIdle { return nil }
            while sem_wait(slot.semaphore) != 0 {}
            break
        }
        defer { slot.call = nil }
        return slot.call
    }
}
