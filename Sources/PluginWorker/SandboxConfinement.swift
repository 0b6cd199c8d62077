import CWorkerSandbox
import WorkerProtocol

import Glibc

/// The worker's side of the sandbox: it confines the worker before any
/// plugin code runs. (What the host did before the worker ran, the
/// namespaces, the session, the descriptors and the parent-death signal, is
/// `worker_spawn.h`'s.)
///
/// It must happen on the main thread before the worker starts any other:
/// Landlock, no_new_privs and the capability drop apply to the calling
/// thread and to the threads it starts afterwards, not to threads already
/// running. The worker's `main` runs them before it makes its first frame
/// stream or thread; the report counts the threads to prove it.
enum SandboxConfinement {
    /// RLIMIT_AS at most, and when the host says nothing. A worker with a Swift plugin peaks at about 0.6 GiB of
    /// address space, nearly all of it reserved, not used: glibc reserves
    /// 64 MiB per malloc arena and 8 MiB per thread stack. 2 GiB leaves room
    /// for a 16 MiB frame and a busy plugin, and stops one that allocates
    /// without bound long before the machine notices.
    static let addressSpaceBytes: UInt64 = 2 << 30
    /// RLIMIT_NOFILE. A worker holds about a dozen descriptors: stdio, its
    /// pipes, the plugin file, the pipe loop's wake pipe and Dispatch's.
    static let openFiles: UInt64 = 64
    /// RLIMIT_CPU. A worker spends milliseconds of CPU per fetch; a minute is
    /// a plugin spinning. SIGXCPU ends it, and the host reports the signal.
    static let cpuSeconds: UInt64 = 60

    /// The first system call the filter refused in this worker, if any.
    static var firstRefusedSystemCall: UInt32? {
        let number = pb_sandbox_first_refused_syscall()
        return number == UInt32.max ? nil : number
    }

    /// Confines the worker: no_new_privs, resource limits, Landlock, no
    /// capabilities, then the seccomp filter.
    /// - Parameters:
    ///   - pluginFile: The plugin's descriptor, which stays readable.
    ///   - skipped: Layers not to apply, for tests and benchmarks.
    ///   - addressSpace: RLIMIT_AS, the worker's share of the host's memory budget.
    /// - Returns: What took effect; a layer the kernel lacks is reported missing.
    static func confine(pluginFile: Int32, skipping skipped: SandboxLayers, addressSpace: UInt64 = addressSpaceBytes) -> SandboxReport {
        let layers = skipped.confinementLayers

        var report = pb_sandbox_report()
        report.struct_size = UInt32(MemoryLayout<pb_sandbox_report>.size)
        let paths = readablePaths().map { strdup($0) }
        let fileReadingPaths = self.fileReadingPaths.map { strdup($0) }
        defer { (paths + fileReadingPaths).forEach { free($0) } }
        let descriptors: [Int32] = [pluginFile]
        paths.map { UnsafePointer($0) }.withUnsafeBufferPointer { pathPointers in
            fileReadingPaths.map { UnsafePointer($0) }.withUnsafeBufferPointer { fileReadingPointers in
                descriptors.withUnsafeBufferPointer { descriptorPointers in
                    var policy = pb_sandbox_policy()
                    policy.struct_size = UInt32(MemoryLayout<pb_sandbox_policy>.size)
                    policy.layers = layers
                    policy.readable_fds = descriptorPointers.baseAddress
                    policy.readable_fd_count = UInt32(descriptorPointers.count)
                    policy.readable_paths = pathPointers.baseAddress
                    policy.readable_path_count = UInt32(pathPointers.count)
                    policy.file_reading_paths = fileReadingPointers.baseAddress
                    policy.file_reading_path_count = UInt32(fileReadingPointers.count)
                    policy.address_space_bytes = addressSpace
                    policy.open_files = openFiles
                    policy.cpu_seconds = cpuSeconds
                    _ = pb_sandbox_confine(&policy, &report)
                }
            }
        }
        return SandboxReport(report, skipping: skipped)
    }

    /// What loading a plugin reads besides the plugin file: the running
    /// executable's directory (the bundled plugins, and the Swift runtime in
    /// a self-contained install), the Swift runtime's directory, the system's
    /// library directories, the dynamic linker's cache and the directories of
    /// `LD_LIBRARY_PATH` (the host passes only those it checked). Missing ones are skipped.
    static func readablePaths() -> [String] {
        var paths: [String] = []
        if let executable = realpath("/proc/self/exe", nil) {
            paths.append(directory(of: String(cString: executable)))
            free(executable)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if pb_sandbox_library_directory("swift_retain", &buffer, buffer.count) == 0 {
            paths.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        paths += ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"]
        // The library path the host gave it: only directories it checked, and its root holds.
        if let libraryPath = getenv("LD_LIBRARY_PATH") {
            paths += String(cString: libraryPath).split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }

    /// Where files may be read but nothing listed or run: `/proc`. On Linux,
    /// libdispatch (under Swift concurrency) reads `/proc/<tid>/stat` of its
    /// own threads to size its pool, and crashes the process when it cannot;
    /// a thread's directory is a new inode each time, so no narrower rule can
    /// name it. Landlock's own ptrace check still keeps the host's and every
    /// other process's `environ`, `mem`, `maps` and `fd` out of reach, since
    /// they are outside the sandbox; what remains readable is what any
    /// process may read there: command lines, status, system-wide counters.
    static let fileReadingPaths = ["/proc"]

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
