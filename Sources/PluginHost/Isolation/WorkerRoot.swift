import CWorkerSandbox
import FoundationEssentials
import Synchronization

import Glibc

/// What a worker's own root holds (`PB_SPAWN_ROOT`, `worker_spawn.h`): the
/// paths a worker must read to start and load a plugin, and nothing else.
///
/// The same set Landlock lets the worker read (`SandboxConfinement`), so
/// a plugin that loads under Landlock loads here: the worker executable's
/// directory (the bundled plugins, and the Swift runtime of a
/// self-contained install), the Swift runtime's directory, the system's
/// library directories (a symbolic link such as `/lib -> usr/lib` is copied
/// as a link), the dynamic linker's cache, and the directories of
/// `LD_LIBRARY_PATH` that pass the trust rules (``WorkerLibraryPath``). The plugin file is not among
/// them: the worker reads it through the descriptor it is given. Nor is
/// anything the host fetches for it (the CA bundle, `file://` roots): the
/// host makes every request, the worker none.
///
/// Made once per worker executable, and kept for the life of the process:
/// every start passes the same C strings.
final class WorkerRoot: @unchecked Sendable {
    // NB: @unchecked because of `cPaths`: written once in `init`, read-only
    // afterwards, freed in `deinit` when no request can point into it.

    /// The system's library directories and the dynamic linker's cache.
    static let systemPaths = ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache"]

    /// The absolute paths the root holds, none beneath another.
    let paths: [String]
    /// `paths` as C strings, for `pb_spawn_request.root_paths`.
    private let cPaths: UnsafeMutableBufferPointer<UnsafePointer<CChar>?>

    private static let made = Mutex<[String: WorkerRoot]>([:])

    /// The root for workers running `executable` (its real path, which is
    /// the path to run: the root holds no symbolic link to it); for nil, a
    /// probe's, which runs nothing.
    static func forWorker(_ executable: String?) -> WorkerRoot {
        made.withLock { made in
            if let root = made[executable ?? ""] { return root }
            let root = WorkerRoot(paths: paths(executable: executable))
            made[executable ?? ""] = root
            return root
        }
    }

    /// The paths for a worker at `executable`, nested ones left out.
    static func paths(executable: String?) -> [String] {
        var wanted = executable.map { [directory(of: realPath($0))] } ?? []
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if pb_sandbox_library_directory("swift_retain", &buffer, buffer.count) == 0 {
            wanted.append(realPath(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        wanted += systemPaths
        // The library path's directories the worker's environment names (``WorkerEnvironment``).
        wanted += WorkerLibraryPath.ofHost(ProcessInfo.processInfo.environment)
        // A path beneath another is bound with it; and never the host's whole root.
        let sorted = Set(wanted).subtracting(["/"]).sorted()
        var kept: [String] = []
        for path in sorted where !kept.contains(where: { path.hasPrefix($0 + "/") }) {
            kept.append(path)
        }
        return kept
    }

    /// `path` with every symbolic link resolved, or `path` when it cannot be.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private init(paths: [String]) {
        self.paths = paths
        cPaths = .allocate(capacity: paths.count)
        for (index, path) in paths.enumerated() { cPaths[index] = UnsafePointer(strdup(path)) }
    }

    deinit {
        for path in cPaths { free(UnsafeMutablePointer(mutating: path)) }
        cPaths.deallocate()
    }

    /// Points `request` at the paths, which stay valid while this root lives.
    func fill(_ request: inout pb_spawn_request) {
        request.root_paths = UnsafePointer(cPaths.baseAddress)
        request.root_path_count = UInt32(cPaths.count)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
