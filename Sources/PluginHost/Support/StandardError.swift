import Glibc

// NB: inside `StandardError`, a bare `write` names its own method.
private let writeBytes = Glibc.write

/// Unbuffered writes to standard error.
///
/// Each line goes out in as few `write(2)` calls as the pipe takes, so lines
/// from concurrent tasks do not interleave mid-line, and nothing waits in a
/// buffer when the process exits.
package enum StandardError {
    /// Writes `text` as it is; end it with a newline for a whole line.
    /// - Parameter text: What to write. A write that fails is dropped: there
    ///   is nowhere left to report it.
    package static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = writeBytes(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
