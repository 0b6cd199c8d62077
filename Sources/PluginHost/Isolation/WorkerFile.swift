import Glibc

/// The worker executable as the host runs it: a descriptor of the very file
/// that passed ``WorkerExecutable``'s checks, which every start runs
/// (`execveat`, `pb_spawn_request.executable_fd`), and its real path, which
/// names it and whose directory the worker's root holds.
///
/// A path checked and then run by path could name another file by then; a
/// descriptor cannot. Held for the life of the process.
final class WorkerFile: Sendable {
    /// The file's path, every symbolic link resolved.
    let path: String
    /// The file, opened read-only and close-on-exec.
    let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Opens the file at `path`, which must not be a symbolic link (a link
    /// swapped in after a check fails here); nil, with `errno`, when it cannot be.
    static func open(_ path: String) -> WorkerFile? {
        // O_NONBLOCK: a named pipe put in its place does not hang the host.
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        return WorkerFile(path: path, descriptor: descriptor)
    }

    deinit { close(descriptor) }
}
