import Glibc

/// A cgroup v2 subtree the system delegated to this host: where the kernel
/// itself can hold all of a run's workers to the memory budget
/// (``RunCgroup``), rather than the per-worker limits and turns the host
/// keeps everywhere else (``MemoryBudget``).
///
/// The host's own cgroup is the path of the `0::` line of
/// `/proc/self/cgroup`, under the `cgroup2` mount of `/proc/self/mountinfo`.
/// It is delegated when `memory` is among its `cgroup.controllers` and this
/// user may write it, its `cgroup.procs` and its `cgroup.subtree_control`,
/// as systemd gives a unit with `Delegate=yes`. A system with cgroup v1
/// (the memory controller on a v1 hierarchy, a bare `cgroup2` beside it
/// with no controllers) has none.
///
/// Every path is read under ``root``, so a test can lay a temporary
/// directory out like a cgroup2 tree; what a kernel does with the files
/// written (moving a process, enforcing `memory.max`) only a kernel shows.
///
/// ```swift
/// switch CgroupDelegation.find() {
/// case .success(let delegation): _ = delegation.makeRunGroup(bytes: 2 << 30, pid: getpid())
/// case .failure(let reason): print(reason.sentence)
/// }
/// ```
struct CgroupDelegation: Sendable, Equatable {
    /// The host's own cgroup directory, under ``root``.
    let directory: String
    /// What the file system is read under: "" for the real one.
    let root: String

    /// Why the host has no delegated cgroup v2 subtree, or could not use it.
    enum Unavailable: Error, Sendable, Equatable {
        /// `/proc/self/cgroup` has no `0::` line: no cgroup v2 hierarchy.
        case noUnifiedHierarchy
        /// No `cgroup2` file system is mounted.
        case noMount
        /// The host's cgroup is not under the `cgroup2` mount.
        case outsideMount(cgroup: String)
        /// `memory` is not among these `cgroup.controllers`.
        case noMemoryController(controllers: String)
        /// This user may not write there.
        case notWritable(String)
        /// A step of making the run's cgroup failed with `errno`.
        case setupFailed(step: String, errno: Int32)

        /// Why, as a clause: "memory is not among /sys/fs/cgroup/unified/cgroup.controllers".
        var sentence: String {
            switch self {
            case .noUnifiedHierarchy: "/proc/self/cgroup has no cgroup v2 line (0::)"
            case .noMount: "no cgroup2 file system is mounted"
            case .outsideMount(let cgroup): "this process's cgroup \(cgroup) is not under the cgroup2 mount"
            case .noMemoryController(let controllers): "memory is not among \(controllers)"
            case .notWritable(let path): "\(path) is not writable by this user"
            case .setupFailed(let step, let code): "could not \(step): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The host's delegated subtree, or why there is none.
    /// - Parameter root: What the file system is read under: "" for the real one.
    static func find(root: String = "") -> Result<CgroupDelegation, Unavailable> {
        guard let cgroups = read(root + "/proc/self/cgroup"),
            let line = cgroups.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return .failure(.noUnifiedHierarchy) }
        let cgroup = String(line.dropFirst(3))
        guard let mounts = read(root + "/proc/self/mountinfo"), let mount = cgroup2Mount(in: mounts) else { return .failure(.noMount) }
        // The mount shows the hierarchy from its own root down.
        guard cgroup == mount.root || cgroup.hasPrefix(mount.root == "/" ? "/" : mount.root + "/") else {
            return .failure(.outsideMount(cgroup: cgroup))
        }
        let below = mount.root == "/" ? cgroup : String(cgroup.dropFirst(mount.root.count))
        let directory = root + mount.point + (below == "/" ? "" : below)
        let controllers = directory + "/cgroup.controllers"
        guard let available = read(controllers), available.split(whereSeparator: \.isWhitespace).contains("memory") else {
            return .failure(.noMemoryController(controllers: controllers))
        }
        for path in [directory, directory + "/cgroup.procs", directory + "/cgroup.subtree_control"] where access(path, W_OK) != 0 {
            return .failure(.notWritable(path))
        }
        return .success(CgroupDelegation(directory: directory, root: root))
    }

    /// Makes this run's cgroup, `patchbay-run-PID`, with `memory.max` (and
    /// `memory.swap.max` 0, where the kernel has it) set to `bytes`.
    ///
    /// A cgroup whose children get a controller may hold no process itself
    /// (cgroup v2's "no internal processes" rule), so when `memory` is not
    /// yet in the subtree's `cgroup.subtree_control`, the host first moves
    /// itself into a leaf of its own, `patchbay-host-PID`, then enables it.
    /// Any other process in the subtree makes that fail, and the run keeps
    /// the budget without a cgroup.
    /// - Parameters:
    ///   - bytes: The budget.
    ///   - pid: The host's process id.
    func makeRunGroup(bytes: UInt64, pid: pid_t) -> Result<RunCgroup, Unavailable> {
        let control = directory + "/cgroup.subtree_control"
        let enabled = Self.read(control)?.split(whereSeparator: \.isWhitespace).contains("memory") == true
        var hostLeaf: String?
        if !enabled {
            let leaf = directory + "/patchbay-host-\(pid)"
            guard mkdir(leaf, 0o755) == 0 || errno == EEXIST else { return .failure(.setupFailed(step: "make \(leaf)", errno: errno)) }
            if let failed = Self.write("\(pid)", to: leaf + "/cgroup.procs") {
                rmdir(leaf)
                return .failure(.setupFailed(step: "move the host into \(leaf)", errno: failed))
            }
            if let failed = Self.write("+memory", to: control) {
                // Back where it was, which holds processes as before.
                _ = Self.write("\(pid)", to: directory + "/cgroup.procs")
                rmdir(leaf)
                return .failure(.setupFailed(step: "enable memory in \(control)", errno: failed))
            }
            hostLeaf = leaf
        }
        let run = directory + "/patchbay-run-\(pid)"
        guard mkdir(run, 0o755) == 0 || errno == EEXIST else { return .failure(.setupFailed(step: "make \(run)", errno: errno)) }
        if let failed = Self.write("\(bytes)", to: run + "/memory.max") {
            rmdir(run)
            return .failure(.setupFailed(step: "set \(run)/memory.max", errno: failed))
        }
        // Swap would let the workers hold more than the budget in all.
        if access(run + "/memory.swap.max", F_OK) == 0 { _ = Self.write("0", to: run + "/memory.swap.max") }
        return .success(RunCgroup(directory: run, hostLeaf: hostLeaf))
    }

    /// The mount point and the hierarchy's root it shows, of the first `cgroup2` mount.
    static func cgroup2Mount(in mountinfo: String) -> (point: String, root: String)? {
        for line in mountinfo.split(separator: "\n") {
            // ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
            let fields = line.split(separator: " ")
            guard let separator = fields.firstIndex(of: "-"), separator >= 5, separator + 1 < fields.count,
                fields[separator + 1] == "cgroup2"
            else { continue }
            return (String(fields[4]), String(fields[3]))
        }
        return nil
    }

    /// A small file's text, or nil when it cannot be read.
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to a cgroup file in one `write`, as the kernel reads
    /// each; appended, so that a test's plain file keeps every line.
    /// - Returns: nil, or the `errno` of the failure.
    static func write(_ text: String, to path: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        let line = text + "\n"
        let written = line.utf8CString.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, line.utf8.count) }
        return written == line.utf8.count ? nil : (written < 0 ? errno : EIO)
    }
}
