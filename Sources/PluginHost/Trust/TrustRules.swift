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

    /// The first rule `facts` break, or nil when they pass.
    /// - Parameters:
    ///   - facts: From `fstat` of the opened object.
    ///   - subject: What the object is to the plugin being loaded.
    func violation(of facts: FileFacts, for subject: TrustViolation.Subject) -> TrustViolation? {
        switch (facts.kind, subject.isDirectory) {
        case (.regular, false), (.directory, true):
            break
        case (.directory, false):
            return TrustViolation(subject, .notRegular(kind: "a directory"))
        case (.symbolicLink, _):
            return TrustViolation(subject, .notRegular(kind: "a symlink"))
        case (.other(let kind), _):
            return TrustViolation(subject, .notRegular(kind: kind))
        case (.regular, true):
            return TrustViolation(subject, .notRegular(kind: "a file"))
        }
        let writable = facts.permissions & 0o022
        if writable != 0 {
            return TrustViolation(subject, .writableByOthers(group: writable & 0o020 != 0, world: writable & 0o002 != 0, mode: facts.octalMode))
        }
        guard facts.owner == currentUser || facts.owner == 0 else {
            return TrustViolation(subject, .foreignOwner(owner: facts.owner, currentUser: currentUser))
        }
        return nil
    }
}
