import FoundationEssentials
import Glibc
import Synchronization

/// What a plugin file must satisfy before the host opens it for loading,
/// and who may vouch for it: the ownership and permission rules, the lock
/// files that pin digests, and the user's trust store.
///
/// ```swift
/// let store = TrustStore.read(at: TrustStore.path(configHome: "/home/me/.config"))
/// let trust = PluginTrust(allowlist: .perDirectory, store: store)
/// let host = Host(discovery: discovery, services: services, trust: trust)
/// ```
package struct PluginTrust: Sendable {
    /// Which lock file, if any, lists the allowed plugins.
    package enum Allowlist: Sendable, Equatable {
        /// A `plugins.lock` in a plugin's own directory, when there is one.
        /// It only pins: a file it does not list, or whose digest differs,
        /// is refused, but what it lists is not vouched for. A directory
        /// without one loads any file that passes the other checks.
        case perDirectory
        /// This one file, named by the user, for every plugin in every
        /// directory: it vouches for what it lists, and refuses anything
        /// else, and everything when it cannot be read.
        case file(String)
    }

    /// Where the digests that pin plugins come from.
    package let allowlist: Allowlist
    /// The user's trust store, as read at the start of the run; nil when
    /// there is none to read (no configuration directory).
    package let store: TrustStore?
    let rules: TrustRules

    /// Creates a policy for the user this process runs as.
    /// - Parameters:
    ///   - allowlist: Which lock file applies.
    ///   - store: The user's trust store, read with ``TrustStore/read(at:)``.
    package init(allowlist: Allowlist = .perDirectory, store: TrustStore? = nil) {
        self.init(allowlist: allowlist, store: store, currentUser: UInt32(geteuid()))
    }

    init(allowlist: Allowlist, store: TrustStore? = nil, currentUser: UInt32) {
        self.allowlist = allowlist
        self.store = store
        self.rules = TrustRules(currentUser: currentUser)
    }

    /// The same policy with another store, as after the user changed it.
    func with(store: TrustStore) -> PluginTrust {
        PluginTrust(allowlist: allowlist, store: store, currentUser: rules.currentUser)
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

/// The digests one plugin file must match before it loads: the lock file
/// that applies to it, and the user's trust store when it lists the file.
struct ApplicableLock: Sendable {
    /// The lock file that applies to a plugin.
    ///
    /// Not `Result<PluginLock?, LockFileError>`: a generic type built at run time
    /// makes the Swift runtime check `LockFileError: Error` by scanning every
    /// conformance in the process, which every cold start would pay for.
    enum LockFile: Sendable {
        /// No lock file applies.
        case none
        /// The plugin must match this lock file.
        case lock(PluginLock)
        /// A lock file applies but cannot be used, so the plugin is refused.
        case unusable(LockFileError)
    }

    /// The lock file's say.
    let lockFile: LockFile
    /// The digest the user vouched for in their trust store, and the store's path.
    let trusted: (digest: String, store: String)?

    /// Nothing applies: the plugin loads unverified.
    static let unlocked = ApplicableLock(lockFile: .none, trusted: nil)

    /// Whether any digest applies, so that checking it needs the file's SHA-256.
    var needsDigest: Bool {
        if case .none = lockFile { trusted != nil } else { true }
    }

    /// The lock file that lists `pluginPath`, if one applies and lists it.
    func listing(_ pluginPath: String) -> PluginLock? {
        guard case .lock(let lock) = lockFile, lock.expectedDigest(for: pluginPath) != nil else { return nil }
        return lock
    }
}

extension ApplicableLock {
    /// Checks `pluginPath`'s digest against the lock file and the trust
    /// store, where they apply.
    /// - Parameter digest: Takes the file's SHA-256; called only when a digest applies.
    /// - Returns: The digest, when one applied and it matched.
    func verify(_ pluginPath: String, digest: () throws(PluginLoadError) -> String) throws(PluginLoadError) -> String? {
        var expected: String?
        switch lockFile {
        case .none: break
        case .unusable(let error): throw PluginLoadError(.lockFile(error))
        case .lock(let lock):
            guard let listed = lock.expectedDigest(for: pluginPath) else {
                throw PluginLoadError(.notLocked(lock: lock.path, role: lock.role))
            }
            expected = listed
        }
        guard expected != nil || trusted != nil else { return nil }
        let actual = try digest()
        if case .lock(let lock) = lockFile, let expected, actual != expected {
            throw PluginLoadError(.digestMismatch(actual: actual, expected: expected, lock: lock.path, role: lock.role))
        }
        if let trusted, actual != trusted.digest {
            throw PluginLoadError(.trustedDigestMismatch(actual: actual, trusted: trusted.digest, store: trusted.store))
        }
        return actual
    }
}

/// Reads each lock file once per load, however many plugins it covers.
final class LockFileCache: Sendable {
    let trust: PluginTrust
    private let locks = Mutex<[String: ApplicableLock.LockFile]>([:])
    /// Which lock file governs each directory: one look per directory, not one per plugin.
    private let paths = Mutex<[String: String?]>([:])

    init(trust: PluginTrust) {
        self.trust = trust
    }

    /// What `pluginPath` must match: its lock file's digest, or why that is
    /// unusable, and the trust store's.
    func lock(for pluginPath: String) -> ApplicableLock {
        let trusted = trust.store.flatMap { store in store.trustedDigest(for: pluginPath).map { (digest: $0, store: store.path) } }
        return ApplicableLock(lockFile: lockFile(for: pluginPath), trusted: trusted)
    }

    private func lockFile(for pluginPath: String) -> ApplicableLock.LockFile {
        guard let path = lockPath(for: pluginPath) else { return .none }
        if let cached = locks.withLock({ $0[path] }) { return cached }
        let lockFile: ApplicableLock.LockFile
        do throws(LockFileError) {
            lockFile = .lock(try PluginLock.read(at: path, rules: trust.rules, as: trust.allowlist == .perDirectory ? .lockFile : .allowlist))
        } catch {
            lockFile = .unusable(error)
        }
        locks.withLock { $0[path] = lockFile }
        return lockFile
    }

    private func lockPath(for pluginPath: String) -> String? {
        let directory = FilePaths.directory(of: pluginPath)
        if let known = paths.withLock({ $0[directory] }) { return known }
        let path = trust.lockPath(for: pluginPath)
        paths.withLock { $0[directory] = path }
        return path
    }
}
