import Glibc

extension Host {
    /// Writes the lock files for the plugins discovery finds, without
    /// running any plugin code.
    ///
    /// Each file must pass the ownership, permission and ELF checks; its
    /// SHA-256 is taken from the same open descriptor. With
    /// ``PluginTrust/Allowlist/file(_:)`` every digest goes into that one
    /// file; otherwise each plugins directory gets a `plugins.lock`. An
    /// existing lock file is replaced (atomically, by rename), so check the
    /// plugins before you lock them.
    /// - Returns: What was written and what was skipped.
    package func lockPlugins() -> LockReport {
        var report = LockReport()
        var entries: [String: [(digest: String, name: String)]] = [:]
        for path in discovery.files(warn: { services.logger.warning("\($0)") }) {
            do throws(PluginLoadError) {
                let file = try PluginFile.open(path, rules: trust.rules)
                defer { file.closeUnloaded() }
                let digest = try file.sha256()
                let lockPath = lockFilePath(for: path)
                let name = PluginLock.entryName(for: path, inLockAt: lockPath)
                guard PluginLock.canWrite(name: name) else {
                    report.skipped.append(.init(path: path, reason: "its name contains a newline or a backslash, which a lock file cannot hold; rename it"))
                    continue
                }
                entries[lockPath, default: []].append((digest, name))
            } catch {
                report.skipped.append(.init(path: path, reason: error.message(naming: services.names)))
            }
        }
        for (lockPath, lines) in entries.sorted(by: { $0.key < $1.key }) {
            let text = PluginLock.render(lines)
            do {
                try Self.writeAtomically(text, to: lockPath)
                report.written.append(.init(path: lockPath, lines: text.split(separator: "\n").map(String.init)))
            } catch {
                report.failures.append(.init(path: lockPath, reason: "cannot write it: \(error.reason)"))
            }
        }
        return report
    }

    private func lockFilePath(for pluginPath: String) -> String {
        switch trust.allowlist {
        case .file(let path): path
        case .perDirectory: FilePaths.join(FilePaths.directory(of: pluginPath), PluginLock.fileName)
        }
    }

    /// Writes beside the target and renames over it, with mode 0644, so a
    /// reader never sees half a lock file.
    private static func writeAtomically(_ text: String, to path: String) throws(SystemError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw SystemError(operation: "create \(temporary)", errno: errno) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw SystemError(operation: "write", errno: code)
            }
            written += count
        }
        // The umask may have taken bits away; a lock file must be exactly 0644.
        fchmod(descriptor, 0o644)
        fsync(descriptor)
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw SystemError(operation: "rename", errno: code)
        }
    }
}
