extension LockFileCache {
    /// Whether a lock file governs `pluginPath`.
    func applies(to pluginPath: String) -> Bool {
        if case .unlocked = lock(for: pluginPath) { false } else { true }
    }

    /// The lock file that pins `pluginPath` to `digest`, if one does.
    func pin(of pluginPath: String, digest: String?) -> String? {
        guard case .lock(let lock) = lock(for: pluginPath), let digest, lock.expectedDigest(for: pluginPath) == digest else { return nil }
        return lock.path
    }

    /// The lock-file check of loading, made on a digest taken earlier from
    /// the same, unchanged file.
    func check(_ pluginPath: String, digest: String?) throws(PluginLoadError) {
        _ = try lock(for: pluginPath).verify(pluginPath) { () throws(PluginLoadError) in
            // A scan takes the digest whenever a lock applies; without one the file is scanned again.
            guard let digest else { throw PluginLoadError(.changedSinceListed) }
            return digest
        }
    }
}
