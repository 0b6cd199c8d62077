import PluginBoundary

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
        /// The user's trust store.
        case trustStore(path: String)
        /// The user's network grants (`host allow`).
        case networkGrants(path: String)
        /// `patchbay-worker`, which every sandboxed plugin runs in.
        case workerExecutable(path: String)
        /// A directory on the way to a file that the other subjects do not
        /// name: an ancestor, one holding a symlink of the way, or the one
        /// holding a lock file or the trust store.
        case onTheWay(to: Guarded, directory: String, role: PathWalk.Role)

        /// The path the fix acts on.
        var path: String {
            switch self {
            case .plugin(let path), .directory(let path), .lockFile(let path), .trustStore(let path), .networkGrants(let path), .workerExecutable(let path): path
            case .symlinkTarget(_, let target): target
            case .targetDirectory(_, _, let directory), .onTheWay(_, let directory, _): directory
            }
        }

        var isDirectory: Bool {
            switch self {
            case .directory, .targetDirectory, .onTheWay: true
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
            case .trustStore(let path): "the trust store \(path) is"
            case .networkGrants(let path): "the network grants \(path) are"
            case .workerExecutable(let path): "the worker executable \(path) is"
            case .onTheWay(let guarded, let directory, .ancestor): "\(guarded.possessive) path passes through \(directory), which is"
            case .onTheWay(let guarded, let directory, .link(let link)):
                "\(guarded.subject) is reached through the symlink \(link), whose directory \(directory) is"
            case .onTheWay(let guarded, let directory, .file): "\(guarded.subject) is in \(directory), which is"
            }
        }

        /// What another user who could write the subject could do.
        var consequence: String {
            switch self {
            case .lockFile, .onTheWay(.lockFile, _, _): "so other users could allow any plugin"
            case .trustStore, .onTheWay(.trustStore, _, _): "so other users could vouch for any plugin"
            case .networkGrants, .onTheWay(.networkGrants, _, _): "so other users could let any plugin fetch anywhere"
            case .workerExecutable, .onTheWay(.workerExecutable, _, _): "so other users could run their code in place of every sandboxed plugin"
            case .directory, .targetDirectory, .onTheWay: "so other users could swap the plugin"
            case .plugin, .symlinkTarget: "so other users could replace its code"
            }
        }
    }

    /// The file a check on the way protects.
    enum Guarded: Sendable, Equatable {
        /// The plugin being loaded, "it" in a refusal of it.
        case plugin
        /// A lock file, by its path.
        case lockFile(String)
        /// The trust store, by its path.
        case trustStore(String)
        /// The network grants, by their path.
        case networkGrants(String)
        /// The `host` executable, by its path, whose location vouches for bundled plugins.
        case executable(String)
        /// `patchbay-worker`, by its path.
        case workerExecutable(String)

        var subject: String {
            switch self {
            case .plugin: "it"
            case .lockFile(let path): "the lock file \(path)"
            case .trustStore(let path): "the trust store \(path)"
            case .networkGrants(let path): "the network grants \(path)"
            case .executable(let path): "the host executable \(path)"
            case .workerExecutable(let path): "the worker executable \(path)"
            }
        }

        /// The file, named as what a fix moves.
        var object: String {
            switch self {
            case .plugin: "the plugin"
            case .lockFile(let path), .trustStore(let path), .networkGrants(let path), .executable(let path), .workerExecutable(let path): path
            }
        }

        var possessive: String {
            switch self {
            case .plugin: "its"
            case .lockFile(let path): "the lock file \(path)'s"
            case .trustStore(let path): "the trust store \(path)'s"
            case .networkGrants(let path): "the network grants \(path)'s"
            case .executable(let path): "the host executable \(path)'s"
            case .workerExecutable(let path): "the worker executable \(path)'s"
            }
        }
    }

    enum Kind: Sendable, Equatable {
        case notRegular(kind: String)
        case writableByOthers(group: Bool, world: Bool, mode: String)
        case foreignOwner(owner: UInt32, currentUser: UInt32)
        case danglingSymlink(target: String, error: SystemError)
        /// A directory others may write, shared through its sticky bit, from
        /// which the way takes an entry another user owns (and so may replace).
        case foreignEntryInShared(entry: String, owner: UInt32, mode: String)
        /// Bigger than a plugin may be, so it is not read, let alone hashed.
        case tooLarge(size: Int, limit: Int)
        /// The way to it cannot be walked: a name is missing, or it loops;
        /// `error` is nil when what failed has no `errno` to tell.
        case unreachable(path: String, error: SystemError?)
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
        case .foreignOwner, .foreignEntryInShared: "owner"
        case .danglingSymlink, .unreachable: "symlink target"
        case .tooLarge: "size"
        }
    }

    var description: String {
        "refused (\(check)): \(finding); \(fix)"
    }

    /// What was found, without the check or the fix: "its directory /p is group-writable (mode 0775), so …".
    var finding: String {
        switch kind {
        case .notRegular(let kind) where subject.isDirectory:
            return "\(subject.phrase) \(kind), not a directory"
        case .notRegular(let kind):
            return "\(subject.phrase) \(kind), not a regular file"
        case .writableByOthers(let group, let world, let mode):
            let who = group && world ? "group- and world-writable" : world ? "world-writable" : "group-writable"
            return "\(subject.phrase) \(who) (mode \(mode)), \(subject.consequence)"
        case .foreignOwner(let owner, let currentUser):
            return "\(subject.phrase) owned by uid \(owner), not by you (uid \(currentUser)) or root"
        case .danglingSymlink(let target, let error):
            return "it is a symlink to \(target), which cannot be opened (\(error.reason))"
        case .foreignEntryInShared(let entry, let owner, let mode):
            return "\(subject.phrase) shared (mode \(mode)), and \(entry) in it is owned by uid \(owner), \(subject.consequence)"
        case .tooLarge(let size, let limit):
            return "\(subject.phrase) \(Self.bytes(size)), larger than a plugin may be (\(Self.bytes(limit)))"
        case .unreachable(let path, let error):
            return "the way to it passes through \(path), which cannot be followed (\(error?.reason ?? "it cannot be read"))"
        }
    }

    /// "10 GiB", "more than 10 GiB (10737418245 bytes)", or "300 bytes" below a KiB.
    private static func bytes(_ count: Int) -> String {
        let units = [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")]
        guard let (shift, unit) = units.first(where: { count >= 1 << $0.0 }) else { return "\(count) bytes" }
        let whole = count >> shift
        return whole << shift == count ? "\(whole) \(unit)" : "more than \(whole) \(unit) (\(count) bytes)"
    }

    private var fix: String {
        switch (kind, subject) {
        case (.notRegular, .symlinkTarget(let link, _)), (.danglingSymlink, .symlinkTarget(let link, _)),
            (.danglingSymlink, .plugin(let link)):
            return "point \(link) at a plugin file or remove it"
        case (.notRegular, .workerExecutable(let path)):
            return "put the patchbay-worker built with this host at \(path)"
        case (.notRegular, _):
            return "remove \(subject.path) from the plugins directory"
        case (.writableByOthers(let group, let world, _), _):
            return "run `chmod \(group && world ? "go" : world ? "o" : "g")-w \(subject.path)`"
        case (.foreignOwner, .onTheWay(let guarded, _, let role)) where role != .file:
            return "move \(guarded.object) to a directory only you or root can write"
        case (.foreignEntryInShared, .onTheWay(let guarded, _, _)):
            return "move \(guarded.object) to a directory only you or root can write"
        case (.foreignOwner(_, let currentUser), _):
            return "if you trust it, run `sudo chown \(currentUser) \(subject.path)`"
        case (.danglingSymlink, _), (.foreignEntryInShared, _):
            return "fix or remove \(subject.path)"
        case (.tooLarge, _):
            return "remove \(subject.path) from the plugins directory"
        case (.unreachable(let path, _), _):
            return "fix or remove \(path)"
        }
    }
}
