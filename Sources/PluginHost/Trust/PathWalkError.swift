import PluginBoundary

import Glibc

/// Why a path cannot be walked to its end.
enum PathWalkError: Error, Sendable, Equatable {
    /// A name on the way cannot be read: what was tried, where.
    case system(SystemError, at: String)
    /// More symlinks than the kernel itself follows (`ELOOP`).
    case tooManyLinks(at: String)
    /// A name the way must pass through is not a directory.
    case notADirectory(String)

    /// The path the failure is about.
    var path: String {
        switch self {
        case .system(_, let path), .tooManyLinks(let path), .notADirectory(let path): path
        }
    }

    /// What went wrong, as the system call that failed would have said it.
    var error: SystemError {
        switch self {
        case .system(let error, _): error
        case .tooManyLinks: SystemError(operation: "follow the symlinks", errno: ELOOP)
        case .notADirectory: SystemError(operation: "pass through", errno: ENOTDIR)
        }
    }

    /// What went wrong, for a message: "No such file or directory".
    var reason: String { error.reason }
}
