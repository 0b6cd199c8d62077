import Glibc
import Logging
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

    /// The places themselves, queued first come first served.
    private let places: AsyncSlots
    /// How many workers hold a place now, and the most that held one at once.
    private let running = Mutex((now: 0, peak: 0))

    /// How the budget is kept: by the kernel, in this run's cgroup of a
    /// delegated cgroup v2 subtree, or by the per-worker limits and these
    /// places alone, and why.
    enum Keeping: Sendable, Equatable {
        case cgroup(RunCgroup)
        case caps(CgroupDelegation.Unavailable)
    }

    /// Decided when the first worker starts, so a run that starts none makes no cgroup.
    private let keeping = Mutex<Keeping?>(nil)
    /// What cgroup files are read under: "" for the real file system.
    let cgroupRoot: String
    /// The largest peak resident set of any worker reaped so far, in KiB, as the kernel reports it.
    private static let largestResident = Mutex(0)

    /// Places for as many workers at once as `budget` allows (at least one).
    init(budget: MemoryBudget, cgroupRoot: String = "") {
        self.budget = budget
        self.cgroupRoot = cgroupRoot
        places = AsyncSlots(capacity: budget.concurrentWorkers)
        capacity = places.capacity
    }

    /// Puts a worker that has just started, and runs no plugin code yet,
    /// under the budget: into the run's cgroup when the system delegated a
    /// cgroup v2 subtree. The first call decides which, and says so in one
    /// `-v` line.
    func admit(_ pid: pid_t, logger: Logger) {
        let (keeping, decided) = self.keeping.withLock { keeping -> (Keeping, Bool) in
            if let keeping { return (keeping, false) }
            let decided: Keeping
            switch CgroupDelegation.find(root: cgroupRoot).flatMap({ $0.makeRunGroup(bytes: budget.bytes, pid: getpid()) }) {
            case .success(let group): decided = .cgroup(group)
            case .failure(let reason): decided = .caps(reason)
            }
            keeping = decided
            return (decided, true)
        }
        if decided { logger.debug("\(Self.describe(keeping, budget: budget, capacity: capacity))") }
        if case .cgroup(let group) = keeping, let failed = group.admit(pid) {
            logger.warning("memory budget: could not move worker \(pid) into \(group.directory): \(String(cString: strerror(failed))); it is held by its own limit only")
        }
    }

    /// How the budget is kept, for `-v` and `host inspect`: as decided by
    /// the first worker, or, before any, as it would be.
    var keepingDescription: String {
        if let decided = keeping.withLock({ $0 }) { return Self.describe(decided, budget: budget, capacity: capacity) }
        switch CgroupDelegation.find(root: cgroupRoot) {
        case .success(let delegation):
            return Self.describe(.cgroup(RunCgroup(directory: delegation.directory + "/patchbay-run-PID", hostLeaf: nil)), budget: budget, capacity: capacity)
        case .failure(let reason):
            return Self.describe(.caps(reason), budget: budget, capacity: capacity)
        }
    }

    /// Removes the run's cgroup, if it made one; once its workers have ended.
    func finish() {
        if case .cgroup(let group) = keeping.withLock({ $0 }) { group.remove() }
    }

    /// One line: who keeps the budget, and why not the kernel.
    static func describe(_ keeping: Keeping, budget: MemoryBudget, capacity: Int) -> String {
        switch keeping {
        case .cgroup(let group):
            "memory budget \(budget): kept by the kernel, every worker in the cgroup v2 \(group.directory) (memory.max \(budget.bytes))"
        case .caps(let reason):
            "memory budget \(budget): kept by each worker's limit of \(MemoryBudget.size(budget.perWorkerBytes)) of address space and "
                + "at most \(capacity) workers of plugins nobody vouched for at once; no delegated cgroup v2 subtree: \(reason.sentence)"
        }
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

    /// Takes a place, waiting until one is free, first come first served.
    func acquire() async {
        await places.acquire()
        running.withLock { running in
            running.now += 1
            running.peak = max(running.peak, running.now)
        }
    }

    /// Gives a place back: to the first start waiting, if any.
    func release() {
        running.withLock { $0.now -= 1 }
        places.release()
    }

    /// The most places in use at once so far.
    var peak: Int { running.withLock { $0.peak } }

    /// Notes a reaped worker's peak resident set (`ru_maxrss`, in KiB).
    static func notePeakResident(kibibytes: Int) {
        largestResident.withLock { $0 = max($0, kibibytes) }
    }

    /// The largest peak resident set of any worker this process reaped, in KiB.
    static var largestPeakResident: Int { largestResident.withLock { $0 } }
}
