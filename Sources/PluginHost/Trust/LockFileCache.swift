import FoundationEssentials
import Glibc
import Synchronization

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
    /// unusable, the trust store's, and the user's network grant.
    func lock(for pluginPath: String) -> ApplicableLock {
        let trusted = trust.store.flatMap { store in store.trustedDigest(for: pluginPath).map { (digest: $0, store: store.path) } }
        return ApplicableLock(lockFile: lockFile(for: pluginPath), trusted: trusted, granted: trust.grants?.grant(for: pluginPath))
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
