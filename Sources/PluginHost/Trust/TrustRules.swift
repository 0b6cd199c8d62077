/// The checks a plugin file passes before the host runs any of its code.
///
/// They are the ones `sudo` makes of its plugins and OpenSSH of its key
/// files: whoever can write a plugin, or the directory it sits in, can make
/// the host run their code, so only the current user and root may.
///
/// - A plugin is a regular file. A symlink is followed, and its target must
///   pass every check below.
/// - Neither the file nor its directory is group- or world-writable. For a
///   symlink, that holds for the link's directory and for the target's.
/// - The file and its directory belong to the current user or to root.
///
/// Only the directory that holds the file is checked, not its ancestors, so
/// a private plugins directory under `/tmp` is fine.
///
/// The rules are a pure function of ``FileFacts`` and the current user, so
/// they can be tested for any owner, which a test suite running as root
/// cannot arrange with real files.
struct TrustRules: Sendable {
    /// The user the host runs as (`geteuid()`); root is always trusted too.
    let currentUser: UInt32

    /// One of the rules, in the order they are checked.
    enum Rule: CaseIterable {
        /// A regular file for a plugin, a directory for a directory.
        case kind
        /// Neither group- nor world-writable.
        case notWritableByOthers
        /// Owned by the current user or root.
        case owner

        /// The rule's short name, as a refusal shows it: "refused (owner): …".
        func name(for subject: TrustViolation.Subject) -> String {
            switch self {
            case .kind: subject.isDirectory ? "directory" : "regular file"
            case .notWritableByOthers: "not writable by others"
            case .owner: "owner"
            }
        }
    }

    /// The first rule `facts` break, or nil when they pass.
    /// - Parameters:
    ///   - facts: From `fstat` of the opened object.
    ///   - subject: What the object is to the plugin being loaded.
    func violation(of facts: FileFacts, for subject: TrustViolation.Subject) -> TrustViolation? {
        for rule in Rule.allCases {
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
            guard facts.owner != currentUser && facts.owner != 0 else { return nil }
            return TrustViolation(subject, .foreignOwner(owner: facts.owner, currentUser: currentUser))
        }
    }
}
