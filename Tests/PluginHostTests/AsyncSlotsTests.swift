import PluginHost
import Synchronization
import Testing

/// ``AsyncSlots``, the places the host's workers of strangers and the tests'
/// child processes take: first come first served, a cancelled waiter keeps
/// its turn, and no place is lost however the holders interleave.
@Suite("Async slots: first come first served, cancellation keeps the turn, no lost wake-up")
struct AsyncSlotsTests {
    /// What the tasks holding places record, shared with them.
    final class Record: Sendable {
        let order = Mutex<[String]>([])
        /// How many hold a place now, and the most that did at once.
        let holders = Mutex((now: 0, most: 0))
        let rounds = Atomic(0)
    }

    /// Waits until `count` callers wait for a place: a signal from the
    /// slots themselves, polled between yields on `executor`, never a
    /// sleep. The limit is a hang guard: whole suites have kept these tests
    /// waiting 30 s in all for a thread of the pool, 0.1 s alone.
    static func waiters(_ count: Int, in slots: AsyncSlots, polledOn executor: ThreadExecutor) async throws {
        try await Deadline.within(.seconds(120), "\(count) waiters") {
            await withTaskGroup(of: Void.self) { group in
                group.addTask(executorPreference: executor) {
                    while slots.waitingCount < count, !Task.isCancelled { await Task.yield() }
                }
            }
        }
    }

    /// Takes every place within a hang guard: proof that none was lost.
    static func takeEveryPlace(_ slots: AsyncSlots) async throws {
        try await Deadline.within(.seconds(120), "every place of \(slots.capacity)") {
            for _ in 0..<slots.capacity { await slots.acquire() }
        }
        for _ in 0..<slots.capacity { slots.release() }
    }

    @Test("Waiters get a place in the order they asked")
    func firstComeFirstServed() async throws {
        let slots = AsyncSlots(capacity: 1)
        let record = Record()
        // The waiters and the polling on a thread of their own, not on the pool the whole suite keeps busy.
        let executor = ThreadExecutor()
        defer { executor.stop() }
        await slots.acquire()
        var tasks: [Task<Void, Never>] = []
        for name in ["a", "b", "c", "d", "e"] {
            tasks.append(Task(executorPreference: executor) {
                await slots.acquire()
                record.order.withLock { $0.append(name) }
                slots.release()
            })
            // Queued before the next one asks.
            try await Self.waiters(tasks.count, in: slots, polledOn: executor)
        }
        slots.release()
        let waiters = tasks
        try await Deadline.within(.seconds(120), "the five waiters") { for task in waiters { await task.value } }

        #expect(record.order.withLock { $0 } == ["a", "b", "c", "d", "e"])
        #expect(slots.waitingCount == 0)
        try await Self.takeEveryPlace(slots)
    }

    @Test("A waiter cancelled while it waits keeps its turn, gets its place, and gives it back: none is lost")
    func cancelledWaiterKeepsItsTurn() async throws {
        let slots = AsyncSlots(capacity: 1)
        let record = Record()
        let executor = ThreadExecutor()
        defer { executor.stop() }
        await slots.acquire()
        let cancelled = Task(executorPreference: executor) { () -> Bool in
            await slots.acquire()
            record.order.withLock { $0.append("cancelled") }
            slots.release()
            return Task.isCancelled
        }
        try await Self.waiters(1, in: slots, polledOn: executor)
        cancelled.cancel()
        let later = Task(executorPreference: executor) {
            await slots.acquire()
            record.order.withLock { $0.append("later") }
            slots.release()
        }
        // Both wait: cancelling did not take the first out of the queue.
        try await Self.waiters(2, in: slots, polledOn: executor)
        #expect(record.order.withLock { $0 }.isEmpty)

        slots.release()
        let sawCancellation = try await Deadline.within(.seconds(120), "the cancelled waiter") { await cancelled.value }
        try await Deadline.within(.seconds(120), "the later waiter") { await later.value }

        #expect(sawCancellation)
        #expect(record.order.withLock { $0 } == ["cancelled", "later"])
        try await Self.takeEveryPlace(slots)
    }

    @Test("Eight tasks taking and giving back the places 500 times each: never more holders than places, and every task finishes", arguments: [1, 2])
    func noLostWakeUp(capacity: Int) async throws {
        let slots = AsyncSlots(capacity: capacity)
        let record = Record()
        let (tasks, rounds) = (8, 500)
        // On two threads of their own, which race as the pool's would: on
        // the cooperative pool, which the rest of the suite keeps busy,
        // these 4,000 rounds (0.1 s alone) once outlasted 120 s. A lost
        // wake-up hangs them anywhere.
        let executors = [ThreadExecutor(), ThreadExecutor()]
        defer { for executor in executors { executor.stop() } }
        try await Deadline.within(.seconds(120), "\(tasks) tasks of \(rounds) rounds") {
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask(executorPreference: executors[task % executors.count]) {
                        for _ in 0..<rounds {
                            await slots.acquire()
                            record.holders.withLock { holders in
                                holders.now += 1
                                holders.most = max(holders.most, holders.now)
                            }
                            // Lets the others queue while this one holds its place.
                            await Task.yield()
                            record.holders.withLock { $0.now -= 1 }
                            record.rounds.add(1, ordering: .relaxed)
                            slots.release()
                        }
                    }
                }
            }
        }

        #expect(record.rounds.load(ordering: .relaxed) == tasks * rounds)
        #expect(record.holders.withLock { $0.most } <= capacity)
        #expect(slots.waitingCount == 0)
        try await Self.takeEveryPlace(slots)
    }
}
