import PluginBoundary

import Glibc

/// What identifies a file's content without reading it: a changed or
/// replaced file changes at least one of these (the ctime even when someone
/// resets the mtime).
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    init(device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, changedNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        // Wrapping: a time past 2262 (any file's owner can set one) must not
        // trap. This is an identity, not a clock: the value still changes
        // whenever the time does.
        modifiedNanoseconds = Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
        changedNanoseconds = Int64(status.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_ctim.tv_nsec)
    }

    /// The identity of what `path` names, following symlinks.
    static func of(path: String) throws(SystemError) -> FileIdentity {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError(operation: "stat", errno: errno) }
        return FileIdentity(status)
    }
}
