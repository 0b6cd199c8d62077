/// Why a lock file cannot be used. Every plugin it covers is then refused:
/// a lock that cannot be read must not fail open.
struct LockFileError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case unreadable(reason: String)
        case untrusted(TrustViolation)
        case tooLarge(limit: Int)
        case malformed(line: Int)
        case duplicate(name: String, lines: (Int, Int))

        static func == (lhs: Kind, rhs: Kind) -> Bool {
            switch (lhs, rhs) {
            case (.unreadable(let a), .unreadable(let b)): a == b
            case (.untrusted(let a), .untrusted(let b)): a == b
            case (.tooLarge(let a), .tooLarge(let b)): a == b
            case (.malformed(let a), .malformed(let b)): a == b
            case (.duplicate(let a, let x), .duplicate(let b, let y)): a == b && x == y
            default: false
            }
        }
    }

    /// The lock file.
    let path: String
    let kind: Kind

    init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    var description: String {
        message(naming: SettingNames())
    }

    /// One line, naming the program's command that writes lock files.
    func message(naming names: SettingNames) -> String {
        switch kind {
        case .untrusted(let violation):
            violation.description
        case .unreadable(let reason):
            "refused (lock file): the lock file \(path) cannot be read (\(reason)); fix its permissions, or write it again with \(names.lockPlugins)"
        case .tooLarge(let limit):
            "refused (lock file): the lock file \(path) is larger than \(limit) bytes; write it again with \(names.lockPlugins)"
        case .malformed(let line):
            "refused (lock file): line \(line) of \(path) is not `<sha256 hex>  <file name>`; fix the line, or write the file again with \(names.lockPlugins)"
        case .duplicate(let name, let lines):
            "refused (lock file): \(path) lists \(name) twice (lines \(lines.0) and \(lines.1)); delete one of the lines"
        }
    }
}
