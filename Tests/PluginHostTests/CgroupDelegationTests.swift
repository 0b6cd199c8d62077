import Foundation
import Logging
@testable import PluginHost
import Testing

/// Finding a delegated cgroup v2 subtree and making a run's cgroup in it,
/// against a temporary directory laid out like `/proc/self` and a cgroup2
/// tree (``CgroupDelegation``'s root). What is tested is the host's part:
/// which files it reads, which it writes and with what, and when it falls
/// back. That the kernel then moves a process and enforces `memory.max`
/// only a machine that delegates a subtree shows; this one has cgroup v1.
@Suite("Delegated cgroup v2 subtrees, in a tree laid out like one")
struct CgroupDelegationTests {
    static let unit = "/user.slice/user-1000.slice/user@1000.service/app.slice/prices.service"
    static let mountinfo = """
        25 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
        35 25 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
        36 25 0:31 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:10 - cgroup cgroup rw,memory

        """

    /// A root holding `proc/self/cgroup`, `proc/self/mountinfo` and the
    /// host's cgroup directory with these `cgroup.controllers` and
    /// `cgroup.subtree_control`.
    static func tree(
        cgroup: String = "0::\(unit)\n", mountinfo: String = mountinfo, controllers: String = "cpu io memory pids\n", subtree: String = ""
    ) throws -> (root: String, directory: String) {
        let root = try TemporaryDirectory.make().path
        try FileManager.default.createDirectory(atPath: root + "/proc/self", withIntermediateDirectories: true)
        try cgroup.write(toFile: root + "/proc/self/cgroup", atomically: false, encoding: .utf8)
        try mountinfo.write(toFile: root + "/proc/self/mountinfo", atomically: false, encoding: .utf8)
        let directory = root + "/sys/fs/cgroup" + unit
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try controllers.write(toFile: directory + "/cgroup.controllers", atomically: false, encoding: .utf8)
        try subtree.write(toFile: directory + "/cgroup.subtree_control", atomically: false, encoding: .utf8)
        try "4242\n".write(toFile: directory + "/cgroup.procs", atomically: false, encoding: .utf8)
        return (root, directory)
    }

    static func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("A delegated subtree with memory enabled for children: the run's cgroup gets memory.max, and workers go into it")
    func delegatedWithMemoryEnabled() throws {
        let (root, directory) = try Self.tree(subtree: "memory pids\n")
        let delegation = try CgroupDelegation.find(root: root).get()
        #expect(delegation.directory == directory)

        let group = try delegation.makeRunGroup(bytes: 2 << 30, pid: 4242).get()
        #expect(group == RunCgroup(directory: directory + "/patchbay-run-4242", hostLeaf: nil))
        #expect(Self.text(group.directory + "/memory.max") == "2147483648\n")
        // The host stays where it is: nothing moved.
        #expect(Self.text(directory + "/cgroup.procs") == "4242\n")
        #expect(group.admit(5151) == nil)
        #expect(Self.text(group.directory + "/cgroup.procs") == "5151\n")
    }

    @Test("Memory not yet enabled for children: the host moves itself into a leaf, enables it, then makes the run's cgroup")
    func hostMovesToALeafFirst() throws {
        let (root, directory) = try Self.tree()
        let group = try CgroupDelegation.find(root: root).get().makeRunGroup(bytes: 3 << 30, pid: 4242).get()

        #expect(group.hostLeaf == directory + "/patchbay-host-4242")
        #expect(Self.text(directory + "/patchbay-host-4242/cgroup.procs") == "4242\n")
        #expect(Self.text(directory + "/cgroup.subtree_control") == "+memory\n")
        #expect(Self.text(group.directory + "/memory.max") == "3221225472\n")
    }

    @Test("Swap is closed where the kernel has memory.swap.max, so it cannot stretch the budget")
    func swapClosed() throws {
        let (root, directory) = try Self.tree(subtree: "memory\n")
        try FileManager.default.createDirectory(atPath: directory + "/patchbay-run-4242", withIntermediateDirectories: true)
        try "max\n".write(toFile: directory + "/patchbay-run-4242/memory.swap.max", atomically: false, encoding: .utf8)
        _ = try CgroupDelegation.find(root: root).get().makeRunGroup(bytes: 2 << 30, pid: 4242).get()
        #expect(Self.text(directory + "/patchbay-run-4242/memory.swap.max") == "max\n0\n")
    }

    @Test("No subtree to use: each reason, in words", arguments: [
        // This machine: cgroup v1, with a bare cgroup2 beside it.
        ("0::/\n", "35 25 0:30 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n", "",
         CgroupDelegation.Unavailable.noMemoryController(controllers: "ROOT/sys/fs/cgroup/unified/cgroup.controllers"),
         "memory is not among ROOT/sys/fs/cgroup/unified/cgroup.controllers"),
        ("4:memory:/a\n", mountinfo, "memory\n", .noUnifiedHierarchy, "/proc/self/cgroup has no cgroup v2 line (0::)"),
        ("0::\(unit)\n", "36 25 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", "memory\n", .noMount,
         "no cgroup2 file system is mounted"),
        ("0::/elsewhere\n", "35 25 0:30 /container /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "memory\n", .outsideMount(cgroup: "/elsewhere"),
         "this process's cgroup /elsewhere is not under the cgroup2 mount"),
    ])
    func unavailable(cgroup: String, mountinfo: String, controllers: String, reason: CgroupDelegation.Unavailable, sentence: String) throws {
        let (root, _) = try Self.tree(cgroup: cgroup, mountinfo: mountinfo, controllers: controllers)
        if cgroup == "0::/\n" {
            try FileManager.default.createDirectory(atPath: root + "/sys/fs/cgroup/unified", withIntermediateDirectories: true)
            try "".write(toFile: root + "/sys/fs/cgroup/unified/cgroup.controllers", atomically: false, encoding: .utf8)
        }
        let found = CgroupDelegation.find(root: root)
        let expected: CgroupDelegation.Unavailable =
            if case .noMemoryController(let path) = reason { .noMemoryController(controllers: path.replacingOccurrences(of: "ROOT", with: root)) } else { reason }
        #expect(found == .failure(expected))
        #expect(expected.sentence == sentence.replacingOccurrences(of: "ROOT", with: root))
    }

    @Test("A subtree this user may not write is not delegated", .enabled(if: geteuid() != 0, "root may write any file"))
    func notWritable() throws {
        let (root, directory) = try Self.tree()
        chmod(directory, 0o555)
        defer { chmod(directory, 0o755) }
        #expect(CgroupDelegation.find(root: root) == .failure(.notWritable(directory)))
    }

    @Test("Enabling memory fails (as with another process in the subtree): the host moves back, and makes no run cgroup")
    func enableFailsFallsBack() throws {
        let (root, directory) = try Self.tree()
        // A directory where the control file is: every write to it fails, as EBUSY would.
        try FileManager.default.removeItem(atPath: directory + "/cgroup.subtree_control")
        try FileManager.default.createDirectory(atPath: directory + "/cgroup.subtree_control", withIntermediateDirectories: false)
        let delegation = CgroupDelegation(directory: directory, root: root)

        let made = delegation.makeRunGroup(bytes: 2 << 30, pid: 4242)
        #expect(made == .failure(.setupFailed(step: "enable memory in \(directory)/cgroup.subtree_control", errno: EISDIR)))
        // Moved into its leaf, then back.
        #expect(Self.text(directory + "/patchbay-host-4242/cgroup.procs") == "4242\n")
        #expect(Self.text(directory + "/cgroup.procs") == "4242\n4242\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/patchbay-run-4242"))
    }

    @Test("WorkerSlots: the first worker decides, in one -v line; later ones are put in the run's cgroup; finish removes it")
    func slotsDecideOnce() throws {
        let (root, directory) = try Self.tree(subtree: "memory\n")
        let slots = WorkerSlots(budget: try MemoryBudget(parsing: "2GiB"), cgroupRoot: root)
        let lines = LogLines()
        let logger = lines.logger(level: .debug)

        slots.admit(7001, logger: logger)
        slots.admit(7002, logger: logger)
        let run = directory + "/patchbay-run-\(getpid())"
        #expect(lines.all == ["host: memory budget 2GiB: kept by the kernel, every worker in the cgroup v2 \(run) (memory.max 2147483648)"])
        #expect(Self.text(run + "/cgroup.procs") == "7001\n7002\n")
        #expect("host: " + slots.keepingDescription == lines.all.first)
        // A plain directory holds files, unlike an empty cgroup: removed only by a kernel.
        slots.finish()
        #expect(FileManager.default.fileExists(atPath: run))
    }

    @Test("WorkerSlots on this machine's kind of system (cgroup v1): the caps keep the budget, and the line says why")
    func slotsFallBack() throws {
        let (root, _) = try Self.tree(controllers: "cpu pids\n")
        let slots = WorkerSlots(budget: try MemoryBudget(parsing: "2GiB"), cgroupRoot: root)
        let lines = LogLines()
        slots.admit(7001, logger: lines.logger(level: .debug))
        #expect(lines.all == [
            "host: memory budget 2GiB: kept by each worker's limit of 1GiB of address space and at most 2 workers of plugins nobody vouched for at once; "
                + "no delegated cgroup v2 subtree: memory is not among \(root)/sys/fs/cgroup\(Self.unit)/cgroup.controllers"
        ])
    }
}
