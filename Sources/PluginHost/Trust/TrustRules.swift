/// The checks a plugin file passes before the host runs any of its code.
///
/// They are the ones `sudo` makes of its plugins and OpenSSH of its key
/// files: whoever can write a plugin, or a directory on the way to it, can
/// make the host run their code, so only the current user and root may.
///
/// - A plugin is a regular file of at most ``maximumPluginSize`` bytes. A
///   symlink is followed, and its target must pass every check below.
/// - Neither the file nor its directory is group- or world-writable. For a
///   symlink, that holds for the link's directory and for the target's.
/// - The file and its directory belong to the current user or to root.
/// - Every other directory on the way, from `/` down, symlinks followed one
///   by one (``PathWalk``), belongs to the user or root; one that holds a
///   symlink of the way is not writable by others; an ancestor may be
///   writable by others only when its sticky bit keeps them from replacing
///   what the way takes from it (`/tmp` and the user's directory in it).
///
/// Lock files and the trust store pass the same rules, with their own
/// size limits.
///
/// The rules are a pure function of ``FileFacts`` and the current user, so
/// they can be tested for any owner, which a test suite running as root
/// cannot arrange with real files.
struct TrustRules: Sendable {
    /// The user the host runs as (`geteuid()`); root is always trusted too.
    let currentUser: UInt32

    /// The largest plugin file the host reads: anything bigger is refused
    /// before it is hashed, so a sparse file of many gigabytes costs a
    /// `stat`, not a minute of reading.
    static let maximumPluginSize = 256 << 20

    /// One of the rules, in the order they are checked.
    enum Rule: CaseIterable {
        /// A regular file for a plugin, a directory for a directory.
        case kind
        /// Neither group- nor world-writable.
        case notWritableByOthers
        /// Owned by the current user or root.
        case owner
        /// A plugin file no bigger than ``TrustRules/maximumPluginSize``.
        case size

        /// The rule's short name, as a refusal shows it: "refused (owner): …".
        func name(for subject: TrustViolation.Subject) -> String {
            switch self {
            case .kind: subject.isDirectory ? "directory" : "regular file"
            case .notWritableByOthers: "not writable by others"
            case .owner: "owner"
            case .size: "size"
            }
        }

        /// Whether the rule says anything of `subject`: the size rule is for plugin files.
        func applies(to subject: TrustViolation.Subject) -> Bool {
            switch (self, subject) {
            case (.size, .plugin), (.size, .symlinkTarget): true
            case (.size, _): false
            default: true
            }
        }
    }

    /// The first rule `facts` break, or nil when they pass.
    /// - Parameters:
    ///   - facts: From `fstat` of the opened object.
    ///   - subject: What the object is to the plugin being loaded.
    func violation(of facts: FileFacts, for subject: TrustViolation.Subject) -> TrustViolation? {
        for rule in Rule.allCases where rule.applies(to: subject) {
            if let violation = violation(of: rule, by: facts, for: subject) { return violation }
        }
        return nil
    }

    /// How `facts` fare against one rule, whatever the others say: what
    /// `host inspect` shows for each check.
    func violation(of rule: Rule, by facts: FileFacts, for subject: TrustViolation.Subject) -> TrustViolation? {
        switch rule {
        case .kind:
            switch (facts.kind, subject.isDirectory) {
            case (.regular, false), (.directory, true):
                return nil
            case (.directory, false):
                return TrustViolation(subject, .notRegular(kind: "a directory"))
            case (.symbolicLink, _):
                return TrustViolation(subject, .notRegular(kind: "a symlink"))
            case (.other(let kind), _):
                return TrustViolation(subject, .notRegular(kind: kind))
            case (.regular, true):
                return TrustViolation(subject, .notRegular(kind: "a file"))
            }
        case .notWritableByOthers:
            let writable = facts.permissions & 0o022
            guard writable != 0 else { return nil }
            return TrustViolation(subject, .writableByOthers(group: writable & 0o020 != 0, world: writable & 0o002 != 0, mode: facts.octalMode))
        case .owner:
            guard !isTrusted(owner: facts.owner) else { return nil }
            return TrustViolation(subject, .foreignOwner(owner: facts.owner, currentUser: currentUser))
        case .size:
            guard rule.applies(to: subject), facts.size > Self.maximumPluginSize else { return nil }
            return TrustViolation(subject, .tooLarge(size: facts.size, limit: Self.maximumPluginSize))
        }
    }

    /// The first directory on `walk` that breaks a rule, or nil when every
    /// one passes.
    /// - Parameters:
    ///   - walk: The way to the file.
    ///   - guarded: The file at its end, for the refusal's words.
    ///   - skipping: Directories another check already held to the
    ///     strictest rule (the plugin's own directory and its target's).
    /// - Complexity: O(steps).
    func violation(onTheWay walk: PathWalk, to guarded: TrustViolation.Guarded, skipping: Set<String> = []) -> TrustViolation? {
        for step in walk.steps where !skipping.contains(step.directory) {
            if let violation = violation(of: step, to: guarded) { return violation }
        }
        return nil
    }

    /// How one directory on the way fares. Only an ancestor may be shared:
    /// the directory holding the file, or a symlink of the way, could have
    /// another entry put in place of it, sticky bit or not.
    func violation(of step: PathWalk.Step, to guarded: TrustViolation.Guarded) -> TrustViolation? {
        let subject = TrustViolation.Subject.onTheWay(to: guarded, directory: step.directory, role: step.role)
        if let violation = violation(of: .owner, by: step.facts, for: subject) { return violation }
        guard let violation = violation(of: .notWritableByOthers, by: step.facts, for: subject) else { return nil }
        guard step.role == .ancestor, step.facts.permissions & 0o1000 != 0 else { return violation }
        // Sticky: others may add entries but not replace this one, unless it is theirs.
        guard isTrusted(owner: step.entryOwner) else {
            return TrustViolation(subject, .foreignEntryInShared(entry: step.entry, owner: step.entryOwner, mode: step.facts.octalMode))
        }
        return nil
    }

    /// Whether `owner` may own what the host trusts: the current user or root.
    func isTrusted(owner: UInt32) -> Bool {
        owner == currentUser || owner == 0
    }
}
