import PluginBoundary

/// Why a lock file cannot be used. Every plugin it covers is then refused:
/// a lock that cannot be read must not fail open.
struct LockFileError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case unreadable(SystemError)
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

    /// What the file is to the host: they share a format, not a purpose.
    enum Role: Sendable, Equatable {
        /// A `plugins.lock` beside the plugins, which only pins them; the
        /// user or whoever shipped the plugins writes it, with `sha256sum`.
        case lockFile
        /// The `--allowlist` file the user named, which pins every plugin and
        /// vouches for what it lists; `lock-plugins --allowlist` writes it.
        case allowlist
        /// The user's trust store, which vouches for what it lists.
        case trustStore
        /// The user's network grants (`host allow`), which let what they
        /// list fetch under a URL, still sandboxed.
        case networkGrants

        /// The subject of a refusal of the file itself.
        func subject(_ path: String) -> TrustViolation.Subject {
            switch self {
            case .lockFile, .allowlist: .lockFile(path: path)
            case .trustStore: .trustStore(path: path)
            case .networkGrants: .networkGrants(path: path)
            }
        }

        /// How the whole file is written again, as the end of a fix.
        func rewrite(naming names: SettingNames) -> String {
            switch self {
            case .lockFile: "write it again with `sha256sum`"
            case .allowlist: "write it again with \(names.lockPlugins)"
            case .trustStore: "delete it and vouch again with \(names.trust)"
            case .networkGrants: "delete it and grant again with `host allow`"
            }
        }

        /// The file, as a check on the way to it names it.
        func guarded(_ path: String) -> TrustViolation.Guarded {
            switch self {
            case .lockFile, .allowlist: .lockFile(path)
            case .trustStore: .trustStore(path)
            case .networkGrants: .networkGrants(path)
            }
        }
    }

    /// The lock file.
    let path: String
    /// What it is to the host.
    let role: Role
    let kind: Kind

    init(path: String, role: Role = .lockFile, _ kind: Kind) {
        self.path = path
        self.role = role
        self.kind = kind
    }

    var description: String {
        message(naming: SettingNames())
    }

    /// One line, naming the program's command that writes the file.
    func message(naming names: SettingNames) -> String {
        let (check, file) =
            switch role {
            case .trustStore: ("trust store", "your trust store \(path)")
            case .networkGrants: ("network grants", "your network grants \(path)")
            case .lockFile, .allowlist: ("lock file", "the lock file \(path)")
            }
        let shape = role == .networkGrants ? "`<sha256 hex>  <URL>  <file name>`" : "`<sha256 hex>  <file name>`"
        let rewrite = role.rewrite(naming: names)
        switch kind {
        case .untrusted(let violation):
            return violation.description
        case .unreadable(let error):
            return "refused (\(check)): \(file) cannot be read (\(error.reason)); fix its permissions, or \(rewrite)"
        case .tooLarge(let limit):
            return "refused (\(check)): \(file) is larger than \(limit) bytes; \(rewrite)"
        case .malformed(let line):
            return "refused (\(check)): line \(line) of \(path) is not \(shape); fix the line, or \(rewrite)"
        case .duplicate(let name, let lines):
            return "refused (\(check)): \(path) lists \(name) twice (lines \(lines.0) and \(lines.1)); delete one of the lines"
        }
    }
}
