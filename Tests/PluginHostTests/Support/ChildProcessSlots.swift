import Synchronization

/// At most ``limit`` child processes that the test support starts run at once.
///
/// Swift Testing starts every test at once, and each end-to-end test starts
/// hosts and compilers: unbounded, the test process held 1,400 descriptors
/// within 40 s, mostly pipes. Past about 1,350, Foundation's `Process.run`
/// over-reads its `/proc/self/fd` listing and the whole test process dies
/// with SIGSEGV (swift-corelibs-foundation#5472, fixed after Swift 6.3).
/// A slot is held only while a child runs, never while its test waits for
/// anything else, so a run can always finish and give its slot back.
enum ChildProcessSlots {
    /// Far above what two cores run usefully at once, and a few pipes each
    /// keep the test process far below Foundation's limit.
    static let limit = 48

    private static let state = Mutex<(running: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    /// Runs `body` once a slot is free, and frees it after.
    static func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private static func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.running < limit else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private static func release() {
        // The slot passes straight to the first waiter, if any.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
