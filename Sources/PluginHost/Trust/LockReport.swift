/// What `host lock-plugins` did: the file it wrote, the plugins it left
/// out on purpose, and the files it could not record.
package struct LockReport: Sendable, Equatable {
    /// Where the digests went.
    package enum Destination: Sendable, Equatable {
        /// The user's trust store: the plugins recorded are vouched for.
        case trustStore(String)
        /// The allowlist the user named: it pins every plugin, and vouches
        /// for them when given to `--allowlist`.
        case allowlist(String)

        /// The file's path.
        package var path: String {
            switch self {
            case .trustStore(let path), .allowlist(let path): path
            }
        }
    }

    /// One file written.
    package struct Written: Sendable, Equatable {
        /// Where.
        package let destination: Destination
        /// The lines recorded this run, as written: `<sha256 hex>  <file name>`.
        package let lines: [String]
    }

    /// A plugin file left out, and why, in one line with the fix.
    package struct Skipped: Sendable, Equatable {
        /// The file, as found.
        package let path: String
        /// Why, in one line with the fix.
        package let reason: String
    }

    /// The file written, if any.
    package var written: [Written] = []
    /// Files that failed a check and were left out, in discovery order.
    package var skipped: [Skipped] = []
    /// Files left out on purpose: bundled plugins, which their location
    /// vouches for, and `./plugins`, which nothing vouches for in bulk.
    package var leftOut: [Skipped] = []
    /// Files that could not be written, with the reason; an empty path
    /// when the reason names the file itself.
    package var failures: [Skipped] = []
}
