extension LockFileCache {
    /// The lock-file and trust-store check of loading, made on a digest taken earlier from
    /// the same, unchanged file.
    func check(_ pluginPath: String, digest: String?) throws(PluginLoadError) {
        _ = try lock(for: pluginPath).verify(pluginPath) { () throws(PluginLoadError) in
            // A scan takes the digest whenever a lock or a vouch applies; without one the file is scanned again.
            guard let digest else { throw PluginLoadError(.changedSinceListed) }
            return digest
        }
    }
}
