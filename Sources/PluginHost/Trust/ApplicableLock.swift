import FoundationEssentials
import Glibc
import Synchronization

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
    /// The user's network grant for the file, whose digest ``HostServices``
    /// compares with the file's: a changed file loses it, and still loads.
    var granted: NetworkGrant?

    /// Nothing applies: the plugin loads unverified.
    static let unlocked = ApplicableLock(lockFile: .none, trusted: nil)

    /// Whether any digest applies, so that checking it needs the file's SHA-256.
    var needsDigest: Bool {
        if case .none = lockFile { trusted != nil || granted != nil } else { true }
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
    /// - Returns: The digest, when one applied and it matched (a network
    ///   grant's is compared where its URL is granted, not here).
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
        guard expected != nil || trusted != nil || granted != nil else { return nil }
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
