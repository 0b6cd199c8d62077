import Synchronization

/// Runs an async operation on the calling thread, for targets whose code
/// under test is async but never waits on anything (their networking
/// answers at once).
///
/// The fuzzer calls a target from a plain thread, and the replay suite from
/// the cooperative pool; neither may block waiting for another thread.
/// Every job of the operation's task is enqueued here, by task executor
/// preference, and run in turn before ``run(_:)`` returns.
final class InlineTaskExecutor: TaskExecutor {
    /// Jobs enqueued and not yet run, in order.
    private let jobs = Mutex<[UnownedJob]>([])

    /// Keeps `job` for ``run(_:)`` to run on its own thread.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// The result of `operation`, or nil when it waited on something
    /// outside this thread (which the targets never do).
    static func run<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) -> Value? {
        let executor = InlineTaskExecutor()
        let result = Mutex<Value?>(nil)
        Task(executorPreference: executor) {
            let value = await operation()
            result.withLock { $0 = value }
        }
        while let job = executor.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: executor.asUnownedTaskExecutor())
        }
        return result.withLock { $0 }
    }
}
