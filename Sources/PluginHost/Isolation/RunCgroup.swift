import Glibc

/// This run's cgroup in a delegated subtree (``CgroupDelegation``), whose
/// `memory.max` is the memory budget: the kernel holds every worker put in
/// it to the budget, together, whatever each does.
struct RunCgroup: Sendable, Equatable {
    /// The cgroup's directory, `…/patchbay-run-PID`.
    let directory: String
    /// The leaf the host moved itself into to enable `memory` for its
    /// subtree, if it had to; left for the system to remove with the unit.
    let hostLeaf: String?

    /// Moves a worker into the cgroup, before it runs any plugin code.
    /// - Returns: nil, or the `errno` of the failure.
    func admit(_ pid: pid_t) -> Int32? {
        CgroupDelegation.write("\(pid)", to: directory + "/cgroup.procs")
    }

    /// Removes the cgroup, which the kernel allows once every worker in it has ended.
    func remove() {
        rmdir(directory)
    }
}
