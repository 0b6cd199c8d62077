import Glibc

/// A failed system call, for messages: "cannot open it: Permission denied".
struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was attempted, e.g. "open".
    let operation: String
    /// The `errno` it set.
    let code: Int32

    init(operation: String, errno code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `strerror`'s text, e.g. "No such file or directory".
    var reason: String { String(cString: strerror(code)) }

    var description: String { "cannot \(operation) it: \(reason)" }
}
