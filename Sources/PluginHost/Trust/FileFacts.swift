import PluginBoundary

import Glibc

/// What the trust rules look at in one `stat` of a file or directory.
///
/// Taken from `fstat` on an open descriptor wherever possible, so the facts
/// describe the very object that is then read and loaded, not whatever the
/// path names a moment later.
struct FileFacts: Sendable, Equatable {
    /// The file type, from `st_mode & S_IFMT`.
    enum Kind: Sendable, Equatable {
        case regular
        case directory
        case symbolicLink
        /// Anything else, named for a message: "a named pipe", "a socket".
        case other(String)
    }

    let kind: Kind
    /// The permission bits, `st_mode & 0o7777`.
    let permissions: UInt32
    /// `st_uid`.
    let owner: UInt32
    /// `st_size`, in bytes.
    var size: Int = 0

    init(kind: Kind, permissions: UInt32, owner: UInt32) {
        self.kind = kind
        self.permissions = permissions
        self.owner = owner
    }

    init(_ status: stat) {
        let mode = UInt32(status.st_mode)
        kind =
            switch mode & UInt32(S_IFMT) {
            case UInt32(S_IFREG): .regular
            case UInt32(S_IFDIR): .directory
            case UInt32(S_IFLNK): .symbolicLink
            case UInt32(S_IFIFO): .other("a named pipe")
            case UInt32(S_IFSOCK): .other("a socket")
            case UInt32(S_IFCHR): .other("a character device")
            case UInt32(S_IFBLK): .other("a block device")
            default: .other("not a regular file")
            }
        permissions = mode & 0o7777
        owner = UInt32(status.st_uid)
        size = Int(status.st_size)
    }

    /// The facts of an open descriptor.
    /// - Throws: The `errno` of a failed `fstat`.
    static func of(descriptor: Int32) throws(SystemError) -> FileFacts {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError(operation: "stat", errno: errno) }
        return FileFacts(status)
    }

    /// The facts of what `path` names, following symlinks.
    /// - Throws: The `errno` of a failed `stat`.
    static func of(path: String) throws(SystemError) -> FileFacts {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError(operation: "stat", errno: errno) }
        return FileFacts(status)
    }

    /// The facts of `path` itself, not following a final symlink.
    /// - Throws: The `errno` of a failed `lstat`.
    static func of(linkAt path: String) throws(SystemError) -> FileFacts {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw SystemError(operation: "stat", errno: errno) }
        return FileFacts(status)
    }

    /// `0644`-style octal, as `ls -l` users and `chmod` think of it.
    var octalMode: String {
        let digits = String(permissions, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
