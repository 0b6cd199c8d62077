import CWorkerSandbox
import Synchronization

import Glibc

/// Wakes whoever waits for a worker's end the moment it ends, through the
/// ``PipeLoop`` polling a pidfd, instead of polling `waitpid` on a clock.
///
/// A worker in namespaces of its own takes them down as it exits, a
/// fraction of a millisecond that a clock's step would round up to its own.
final class WorkerExitWatch: PipeLoopClient {
    private let loop: PipeLoop
    private let state: Mutex<State>

    private struct State {
        /// -1 once the process has ended.
        var descriptor: Int32
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Watches `pid`, a child not yet reaped; nil where the kernel has no
    /// pidfd (before Linux 5.3), and the caller polls instead.
    init?(pid: pid_t, loop: PipeLoop = .shared) {
        let descriptor = pb_spawn_pidfd(pid)
        guard descriptor >= 0 else { return nil }
        self.loop = loop
        state = Mutex(State(descriptor: descriptor))
        loop.add(self)
    }

    /// Returns once the process has ended (and is a zombie, not yet reaped).
    func ended() async {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                guard state.descriptor >= 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    // MARK: On the loop's thread

    var isFinished: Bool { state.withLock { $0.descriptor < 0 } }

    func prepareForPoll() -> (input: Int32?, output: Int32?) {
        let descriptor = state.withLock { $0.descriptor }
        return (descriptor >= 0 ? descriptor : nil, nil)
    }

    func flush() {}

    /// The pidfd is readable: the process has ended.
    func readAvailable() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.descriptor >= 0 { close(state.descriptor) }
            state.descriptor = -1
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
