import Glibc

/// A failed system call: what was attempted and the `errno` it set.
///
/// The one type for every system-call failure in the host and the worker,
/// as swift-nio has one `IOError`: a failure carries it, typed, until a
/// message words it ("cannot open it: Permission denied").
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, as a verb a message can use: "open", "stat",
    /// "read the symlink".
    package let operation: String
    /// The `errno` it set.
    package let code: Int32

    package init(operation: String, errno code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `strerror`'s text, e.g. "No such file or directory".
    package var reason: String { String(cString: strerror(code)) }

    /// "cannot open it: Permission denied", for a call on the file the
    /// message is about.
    package var description: String { "cannot \(operation) it: \(reason)" }

    /// "cannot start a worker: Resource temporarily unavailable", for an
    /// operation whose words name what it acted on.
    package var sentence: String { "cannot \(operation): \(reason)" }

    /// "cannot read /srv/prices/eth.json: Permission denied": the
    /// operation on `object`, for a message that has not named it yet.
    package func sentence(about object: String) -> String { "cannot \(operation) \(object): \(reason)" }
}
