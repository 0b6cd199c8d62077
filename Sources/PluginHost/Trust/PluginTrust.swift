import FoundationEssentials
import Glibc
import Synchronization

/// What a plugin file must satisfy before the host opens it for loading:
/// the ownership and permission rules, and an optional lock file of SHA-256
/// digests.
///
/// ```swift
/// let trust = PluginTrust(allowlist: .file("/etc/patchbay/plugins.lock"))
/// let host = Host(discovery: discovery, services: services, trust: trust)
/// ```
package struct PluginTrust: Sendable {
    /// Which lock file, if any, lists the allowed plugins.
    package enum Allowlist: Sendable, Equatable {
        /// A `plugins.lock` in a plugin's own directory, when there is one.
        /// A directory without one loads any file that passes the
        /// ownership and permission checks.
        case perDirectory
        /// This one file, for every plugin in every directory. Plugins it
        /// does not list are refused, and so is everything when it cannot be
        /// read.
        case file(String)
    }

    /// Where the digests come from.
    package let allowlist: Allowlist
    let rules: TrustRules

    /// Creates a policy for the user this process runs as.
    /// - Parameter allowlist: Which lock file applies.
    package init(allowlist: Allowlist = .perDirectory) {
        self.init(allowlist: allowlist, currentUser: UInt32(geteuid()))
    }

    init(allowlist: Allowlist, currentUser: UInt32) {
        self.allowlist = allowlist
        self.rules = TrustRules(currentUser: currentUser)
    }

    /// The lock file that governs `pluginPath`, if any.
    func lockPath(for pluginPath: String) -> String? {
        switch allowlist {
        case .file(let path):
            return path
        case .perDirectory:
            let candidate = FilePaths.join(FilePaths.directory(of: pluginPath), PluginLock.fileName)
            var status = stat()
            return lstat(candidate, &status) == 0 ? candidate : nil
        }
    }
}

/// The lock file that applies to one plugin.
///
/// Not `Result<PluginLock?, LockFileError>`: a generic type built at run time
/// makes the Swift runtime check `LockFileError: Error` by scanning every
/// conformance in the process, which every cold start would pay for.
enum ApplicableLock: Sendable {
    /// No lock file applies; the plugin loads unverified.
    case unlocked
    /// The plugin must match this lock file.
    case lock(PluginLock)
    /// A lock file applies but cannot be used, so the plugin is refused.
    case unusable(LockFileError)
}

extension ApplicableLock {
    /// Checks `pluginPath`'s digest against the lock, if one applies.
    /// - Parameter digest: Takes the file's SHA-256; called only when a lock applies.
    /// - Returns: The digest, when a lock applied and it matched.
    func verify(_ pluginPath: String, digest: () throws(PluginLoadError) -> String) throws(PluginLoadError) -> String? {
        let lock: PluginLock
        switch self {
        case .unlocked: return nil
        case .lock(let found): lock = found
        case .unusable(let error): throw PluginLoadError(.lockFile(error))
        }
        guard let expected = lock.expectedDigest(for: pluginPath) else {
            throw PluginLoadError(.notLocked(lock: lock.path))
        }
        let actual = try digest()
        guard actual == expected else {
            throw PluginLoadError(.digestMismatch(actual: actual, expected: expected, lock: lock.path))
        }
        return actual
    }
}

/// Reads each lock file once per load, however many plugins it covers.
final class LockFileCache: Sendable {
    let trust: PluginTrust
    private let locks = Mutex<[String: ApplicableLock]>([:])
    /// Which lock file governs each directory: one look per directory, not one per plugin.
    private let paths = Mutex<[String: String?]>([:])

    init(trust: PluginTrust) {
        self.trust = trust
    }

    /// The lock for `pluginPath`: none, the lock, or why it is unusable.
    func lock(for pluginPath: String) -> ApplicableLock {
        guard let path = lockPath(for: pluginPath) else { return .unlocked }
        if let cached = locks.withLock({ $0[path] }) { return cached }
        let applicable: ApplicableLock
        do throws(LockFileError) {
            applicable = .lock(try PluginLock.read(at: path, rules: trust.rules))
        } catch {
            applicable = .unusable(error)
        }
        locks.withLock { $0[path] = applicable }
        return applicable
    }

    private func lockPath(for pluginPath: String) -> String? {
        let directory = FilePaths.directory(of: pluginPath)
        if let known = paths.withLock({ $0[directory] }) { return known }
        let path = trust.lockPath(for: pluginPath)
        paths.withLock { $0[directory] = path }
        return path
    }
}
