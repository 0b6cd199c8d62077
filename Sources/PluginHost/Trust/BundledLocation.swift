import Synchronization

/// Whether the host's own location may vouch for the plugins bundled with
/// it: only while the directory of the `host` executable, and every
/// directory above it, belongs to the user or root and nobody else may
/// write it. Whoever could write there could have replaced the plugins, and
/// the host itself.
///
/// The plugins' own directory (``InstalledLayout/bundledPluginsDirectory``:
/// beside the host in a build, `PREFIX/lib/patchbay/plugins` once
/// installed) passes the plugin file rules on every load, ancestors
/// included.
enum BundledLocation {
    /// The first rule the executable's directory, or one above it, breaks;
    /// nil when the location may vouch. Checked once per process.
    static func violation(rules: TrustRules) -> TrustViolation? {
        if let known = verdicts.withLock({ $0[rules.currentUser] }) { return known }
        let directory = InstalledLayout.running.executableDirectory
        let verdict = check(executable: FilePaths.join(directory, FilePaths.name(of: FilePaths.resolved("/proc/self/exe"))), rules: rules)
        verdicts.withLock { $0[rules.currentUser] = verdict }
        return verdict
    }

    private static let verdicts = Mutex<[UInt32: TrustViolation?]>([:])

    /// The check for the executable at `executable`, a path with every symlink resolved.
    static func check(executable: String, rules: TrustRules) -> TrustViolation? {
        let directory = FilePaths.directory(of: executable)
        let guarded = TrustViolation.Guarded.executable(executable)
        let walk: PathWalk
        do throws(PathWalkError) {
            walk = try PathWalk.walk(directory)
        } catch {
            return TrustViolation(.onTheWay(to: guarded, directory: directory, role: .file), .unreachable(path: error.path, error: error.error))
        }
        if let violation = rules.violation(onTheWay: walk, to: guarded) { return violation }
        let subject = TrustViolation.Subject.onTheWay(to: guarded, directory: walk.target, role: .file)
        guard let facts = try? FileFacts.of(linkAt: walk.target) else {
            return TrustViolation(subject, .unreachable(path: walk.target, error: nil))
        }
        return rules.violation(of: facts, for: subject)
    }
}
