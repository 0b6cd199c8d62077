import Glibc

/// The process environment, read straight from the C library.
///
/// `ProcessInfo` would do, but its first use costs a measurable share of a
/// short command's start, and `host list-fetchers` is meant to start fast.
enum ProcessEnvironment {
    /// The value of `name`, or nil when it is unset.
    static func value(of name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The current directory, or "." if it cannot be named (deleted, say).
    static var workingDirectory: String {
        guard let directory = getcwd(nil, 0) else { return "." }
        defer { free(directory) }
        return String(cString: directory)
    }
}
