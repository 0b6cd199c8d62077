extension Host {
    /// Records the SHA-256 of the plugins discovery finds, without running
    /// any plugin code.
    ///
    /// Each file must pass the trust and ELF checks; its SHA-256 is taken
    /// from the same open descriptor. Where the digests go:
    /// - with ``PluginTrust/Allowlist/file(_:)``, into that one file, which
    ///   is replaced: every plugin found, since an allowlist refuses the rest;
    /// - otherwise into the user's trust store, which then vouches for them,
    ///   merged with what it held. Bundled plugins are left out there: their
    ///   location vouches for them, so a rebuild never leaves them refused.
    ///
    /// Plugins found in `./plugins` are left out either way: whoever handed
    /// the user the folder could have put them there, and a vouch for one
    /// names it (`host trust FILE`). The directory is recognised by where it
    /// resolves, however the search path named it (`--plugins-dir plugins`,
    /// `HOST_PLUGINS_DIR`, an absolute path, a trailing `/` or a `..`). Nothing is ever written beside the
    /// executable or into a plugins directory.
    /// - Returns: What was written, left out and refused.
    package func lockPlugins() -> LockReport {
        var report = LockReport()
        var entries: [(path: String, digest: String)] = []
        var bundled: [String] = []
        for candidate in pluginCandidates() {
            let path = candidate.path
            let inWorkingDirectory = candidate.origin == .workingDirectory || PluginDiscovery.origin(ofFile: path) == .workingDirectory
            switch candidate.origin {
            case _ where inWorkingDirectory:
                report.leftOut.append(.init(path: path, reason: "it is in ./plugins, which whoever gave you this folder could have filled; vouch for it by name with \(names.trust)"))
                continue
            case .bundled where trust.allowlist == .perDirectory:
                bundled.append(PluginLock.canonical(path))
                report.leftOut.append(.init(path: path, reason: "it is bundled with the host, whose location vouches for it"))
                continue
            default: break
            }
            do throws(PluginLoadError) {
                let file = try PluginFile.open(path, rules: trust.rules)
                defer { file.closeUnloaded() }
                entries.append((path, try file.sha256()))
            } catch {
                report.skipped.append(.init(path: path, reason: error.message(naming: services.names)))
            }
        }
        switch trust.allowlist {
        case .file(let allowlist): writeAllowlist(allowlist, entries, into: &report)
        case .perDirectory: record(entries, forgetting: bundled, into: &report)
        }
        return report
    }

    /// Replaces the allowlist with `entries`, by absolute name.
    private func writeAllowlist(_ path: String, _ entries: [(path: String, digest: String)], into report: inout LockReport) {
        var lines: [(digest: String, name: String)] = []
        for entry in entries {
            let name = PluginLock.entryName(for: entry.path, inLockAt: path)
            if let what = PluginLock.unwritable(name: name) {
                report.skipped.append(.init(path: entry.path, reason: "its name holds \(what), which a line of a lock file cannot hold; rename the file without it, then lock it"))
                continue
            }
            lines.append((entry.digest, name))
        }
        guard !lines.isEmpty else { return }
        let text = PluginLock.render(lines)
        do {
            try AtomicFile.write(text, to: path, mode: 0o644)
            report.written.append(.init(destination: .allowlist(path), lines: text.split(separator: "\n").map(String.init)))
        } catch {
            report.failures.append(.init(path: path, reason: "cannot write it: \(error.reason)"))
        }
    }

    /// Records `entries` in the user's trust store, and forgets what it held
    /// for the bundled plugins, which their location vouches for.
    private func record(_ entries: [(path: String, digest: String)], forgetting bundled: [String], into report: inout LockReport) {
        guard let store = trust.store else {
            report.failures.append(.init(path: "", reason: TrustStoreError(path: "", .noConfigurationDirectory).message(naming: names)))
            return
        }
        var lines: [(digest: String, name: String)] = []
        for entry in entries {
            let name = PluginLock.canonical(entry.path)
            // The rule and the words of `host trust` (``TrustStore/unstorableName(_:)``).
            if let what = PluginLock.unwritable(name: name) {
                report.skipped.append(.init(path: entry.path, reason: "its name holds \(what), which a line of the trust store cannot hold; rename the file without it, then lock it"))
                continue
            }
            lines.append((entry.digest, name))
        }
        guard !lines.isEmpty || !bundled.isEmpty else { return }
        do throws(TrustStoreError) {
            _ = try TrustStore.update(at: store.path, rules: trust.rules, naming: names) { digests in
                for path in bundled { digests[path] = nil }
                for line in lines { digests[line.name] = line.digest }
            }
            if !lines.isEmpty {
                report.written.append(.init(destination: .trustStore(store.path), lines: PluginLock.render(lines).split(separator: "\n").map(String.init)))
            }
        } catch {
            // The message names the store and what is wrong with it.
            report.failures.append(.init(path: "", reason: error.message(naming: names)))
        }
    }
}
