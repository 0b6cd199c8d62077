/// Why a plugin file, its directory or a lock file is not trusted.
///
/// Each description is one line: the check in parentheses, the file, what
/// was found, and the command that fixes it, e.g. "refused (not writable by
/// others): it is world-writable (mode 0666), so other users could replace
/// its code; run `chmod o-w /srv/plugins/x.so`". The loader puts the plugin's
/// path in front.
struct TrustViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was checked, relative to the plugin being loaded.
    enum Subject: Sendable, Equatable {
        /// The plugin file as found.
        case plugin(path: String)
        /// The file a plugin symlink resolves to.
        case symlinkTarget(link: String, target: String)
        /// The plugins directory holding the file.
        case directory(path: String)
        /// The directory holding a symlink's target.
        case targetDirectory(link: String, target: String, directory: String)
        /// A `plugins.lock` or `--allowlist` file.
        case lockFile(path: String)

        /// The path the fix acts on.
        var path: String {
            switch self {
            case .plugin(let path), .directory(let path), .lockFile(let path): path
            case .symlinkTarget(_, let target): target
            case .targetDirectory(_, _, let directory): directory
            }
        }

        var isDirectory: Bool {
            switch self {
            case .directory, .targetDirectory: true
            default: false
            }
        }

        /// The start of the sentence, up to the verb: "its directory /p is".
        var phrase: String {
            switch self {
            case .plugin: "it is"
            case .symlinkTarget(_, let target): "it is a symlink to \(target), which is"
            case .directory(let path): "its directory \(path) is"
            case .targetDirectory(_, let target, let directory): "it is a symlink to \(target), whose directory \(directory) is"
            case .lockFile(let path): "the lock file \(path) is"
            }
        }
    }

    enum Kind: Sendable, Equatable {
        case notRegular(kind: String)
        case writableByOthers(group: Bool, world: Bool, mode: String)
        case foreignOwner(owner: UInt32, currentUser: UInt32)
        case danglingSymlink(target: String, reason: String)
    }

    let subject: Subject
    let kind: Kind

    init(_ subject: Subject, _ kind: Kind) {
        self.subject = subject
        self.kind = kind
    }

    /// The rule's short name, shown in parentheses: "refused (owner): …".
    var check: String {
        switch kind {
        case .notRegular: subject.isDirectory ? "directory" : "regular file"
        case .writableByOthers: "not writable by others"
        case .foreignOwner: "owner"
        case .danglingSymlink: "symlink target"
        }
    }

    var description: String {
        "refused (\(check)): \(finding); \(fix)"
    }

    private var finding: String {
        switch kind {
        case .notRegular(let kind) where subject.isDirectory:
            return "\(subject.phrase) \(kind), not a directory"
        case .notRegular(let kind):
            return "\(subject.phrase) \(kind), not a regular file"
        case .writableByOthers(let group, let world, let mode):
            let who = group && world ? "group- and world-writable" : world ? "world-writable" : "group-writable"
            let consequence =
                switch subject {
                case .lockFile: "so other users could allow any plugin"
                case .directory, .targetDirectory: "so other users could swap the plugin"
                default: "so other users could replace its code"
                }
            return "\(subject.phrase) \(who) (mode \(mode)), \(consequence)"
        case .foreignOwner(let owner, let currentUser):
            return "\(subject.phrase) owned by uid \(owner), not by you (uid \(currentUser)) or root"
        case .danglingSymlink(let target, let reason):
            return "it is a symlink to \(target), which cannot be opened (\(reason))"
        }
    }

    private var fix: String {
        switch (kind, subject) {
        case (.notRegular, .symlinkTarget(let link, _)), (.danglingSymlink, .symlinkTarget(let link, _)),
            (.danglingSymlink, .plugin(let link)):
            return "point \(link) at a plugin file or remove it"
        case (.notRegular, _):
            return "remove \(subject.path) from the plugins directory"
        case (.writableByOthers(let group, let world, _), _):
            return "run `chmod \(group && world ? "go" : world ? "o" : "g")-w \(subject.path)`"
        case (.foreignOwner(_, let currentUser), _):
            return "if you trust it, run `sudo chown \(currentUser) \(subject.path)`"
        case (.danglingSymlink, _):
            return "fix or remove \(subject.path)"
        }
    }
}
