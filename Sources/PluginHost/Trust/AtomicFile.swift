import PluginBoundary

import Glibc

/// Writes a small file so that a reader sees the old one or the new one,
/// never half of either: into a temporary file beside it, flushed, then
/// renamed over it. For the files that decide what loads: the allowlist
/// `lock-plugins` writes and the trust store.
enum AtomicFile {
    /// Writes `text` to `path` with exactly `mode`, whatever the umask.
    /// - Throws: `SystemError` naming the step that failed; the old file is then untouched.
    static func write(_ text: String, to path: String, mode: mode_t) throws(SystemError) {
        let temporary = FilePaths.join(FilePaths.directory(of: path), ".\(FilePaths.name(of: path)).\(getpid()).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw SystemError(operation: "create \(temporary)", errno: errno) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw SystemError(operation: "write", errno: code)
            }
            written += count
        }
        // The umask may have taken bits away.
        fchmod(descriptor, mode)
        fsync(descriptor)
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw SystemError(operation: "rename", errno: code)
        }
    }
}
