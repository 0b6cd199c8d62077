import Dispatch
import PluginBoundary
import Synchronization

import Glibc

/// The one thread that starts every worker, and that lives as long as the host.
///
/// A worker asks the kernel to kill it when its parent ends
/// (`PR_SET_PDEATHSIG`), and to the kernel the parent is the *thread* that
/// started it, not the process. Swift concurrency's and Dispatch's threads
/// end when they have been idle a while, and a worker started from one would
/// be killed with it, in the middle of a healthy run. So every `posix_spawn`
/// happens here, on a thread that never ends; callers wait for it with a
/// continuation, never by blocking. Being one thread also serialises the
/// spawns, which the pipes' close-on-exec set-up needs (see ``WorkerProcess``).
final class WorkerSpawnThread: Sendable {
    /// The process's spawn thread, started on first use.
    static let shared = WorkerSpawnThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let available = DispatchSemaphore(value: 0)
    /// Why the thread could not be started (an errno value), or 0.
    private let startError = Atomic<Int32>(0)

    private init() {
        let unmanaged = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            // pthread_create passes back the pointer given below, never nil.
            guard let context else { return nil }
            Unmanaged<WorkerSpawnThread>.fromOpaque(context).takeRetainedValue().serve()
        }, unmanaged.toOpaque())
        if result == 0 {
            pthread_detach(thread)
        } else {
            unmanaged.release()
            startError.store(result, ordering: .releasing)
        }
    }

    /// Runs `job` on the spawn thread, after the jobs queued before it.
    /// - Returns: Nil; or, when no thread could be started, why, and `job` never runs.
    func run(_ job: @escaping @Sendable () -> Void) -> SystemError? {
        let error = startError.load(ordering: .acquiring)
        guard error == 0 else {
            return SystemError(operation: "start the thread that starts workers", errno: error)
        }
        jobs.withLock { $0.append(job) }
        available.signal()
        return nil
    }

    private func serve() -> Never {
        while true {
            // A thread of its own, waiting for work: nothing else waits on it.
            available.wait()
            let next = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            next?()
        }
    }
}
