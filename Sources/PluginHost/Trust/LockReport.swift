/// What `host lock-plugins` did: the lock files it wrote and the files it
/// would not lock.
package struct LockReport: Sendable, Equatable {
    /// One lock file written.
    package struct Written: Sendable, Equatable {
        /// Its path.
        package let path: String
        /// Its lines, as written: `<sha256 hex>  <file name>`.
        package let lines: [String]
    }

    /// A plugin file that failed a check and was left out.
    package struct Skipped: Sendable, Equatable {
        /// The file, as found.
        package let path: String
        /// Why, in one line with the fix.
        package let reason: String
    }

    /// The lock files written, in path order.
    package var written: [Written] = []
    /// The files left out, in discovery order.
    package var skipped: [Skipped] = []
    /// Lock files that could not be written, with the reason.
    package var failures: [Skipped] = []
}
