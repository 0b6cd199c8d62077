import Synchronization

/// The run's places for workers of plugins nobody vouched for: at most
/// ``capacity`` run at once (``MemoryBudget/concurrentWorkers``), so that
/// a folder of many strangers costs time, never more memory than the budget.
///
/// A worker takes a place before it starts and gives it back once it has
/// been stopped and reaped; a start that finds none waits for one, first
/// come first served.
final class WorkerSlots: Sendable {
    /// How many places there are.
    let capacity: Int
    /// The budget they come from.
    let budget: MemoryBudget

    private struct State {
        var inUse = 0
        var peak = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    /// The largest peak resident set of any worker reaped so far, in KiB, as the kernel reports it.
    private static let largestResident = Mutex(0)

    /// Places for as many workers at once as `budget` allows (at least one).
    init(budget: MemoryBudget) {
        self.budget = budget
        capacity = max(1, budget.concurrentWorkers)
    }

    /// One line for `-v`: how many strangers' workers ran at once, and the
    /// most memory one of them used, as the kernel reported it when it was
    /// reaped (`ru_maxrss`); nil when none ran.
    var summary: String? {
        let peak = self.peak
        guard peak > 0 else { return nil }
        let resident = UInt64(Self.largestPeakResident) << 10
        return "memory budget \(budget): at most \(peak) of \(capacity) workers of plugins nobody vouched for ran at once, each limited to "
            + "\(MemoryBudget.size(budget.perWorkerBytes)) of address space; the largest peak resident set of a worker was \(resident) bytes"
    }

    /// Takes a place, waiting until one is free.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.inUse < capacity else {
                    state.waiting.append(continuation)
                    return false
                }
                state.inUse += 1
                state.peak = max(state.peak, state.inUse)
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a place back: to the first start waiting, if any.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            // The place passes to the next worker as it is: the count in use stays.
            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
            state.inUse -= 1
            return nil
        }
        next?.resume()
    }

    /// The most places in use at once so far.
    var peak: Int { state.withLock { $0.peak } }

    /// Notes a reaped worker's peak resident set (`ru_maxrss`, in KiB).
    static func notePeakResident(kibibytes: Int) {
        largestResident.withLock { $0 = max($0, kibibytes) }
    }

    /// The largest peak resident set of any worker this process reaped, in KiB.
    static var largestPeakResident: Int { largestResident.withLock { $0 } }
}
