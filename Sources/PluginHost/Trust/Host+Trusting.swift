import Glibc

/// What `host trust` or `host untrust` did for one file, and where its
/// plugin runs now.
package struct TrustChange: Sendable {
    /// The outcome for one file.
    package enum Outcome: Sendable {
        /// Its digest is in the store now; `replaced` is the digest it
        /// held before, when it held another.
        case trusted(sha256: String, before: Placement, after: Placement, replaced: String?)
        /// The store already held this digest for it.
        case alreadyTrusted(sha256: String, placement: Placement)
        /// Bundled with the host, whose location vouches for it: not recorded.
        case bundled(Placement)
        /// It failed a check, so it was not recorded: the reason, in one line.
        case refused(String)
        /// Its digest is gone from the store.
        case untrusted(before: Placement, after: Placement)
        /// The store did not list it: nothing to take back.
        case notTrusted(Placement)
    }

    /// The file, absolute, as the store names it.
    package let path: String
    /// What happened.
    package let outcome: Outcome
}

/// One file the trust store lists, and whether it still has that digest.
package struct TrustedFile: Sendable, Equatable {
    /// Whether the file on disk is the one vouched for.
    package enum Status: String, Sendable, Equatable {
        /// Its SHA-256 is the one vouched for: it runs in-process.
        case matches
        /// Its SHA-256 differs: it is refused until vouched for again.
        case changed
        /// There is no file there, or it cannot be read.
        case missing
    }

    /// The file, absolute.
    package let path: String
    /// The digest vouched for.
    package let sha256: String
    /// How the file compares.
    package let status: Status
}

extension Host {
    /// Vouches for `files` in the user's trust store, so that each runs
    /// in-process, after checking each as `inspect` does: the trust rules
    /// and ELF headers here, then a load in a sandboxed worker, which must
    /// register a fetcher. The digest recorded is taken from the descriptor
    /// those checks read, and the worker loads only a file of the same
    /// identity, so what was recorded is what was checked.
    /// - Parameters:
    ///   - files: The plugin files, as the user named them.
    ///   - isolation: How the checking workers run.
    ///   - policy: Where plugins run in this run, for the placements reported.
    /// - Returns: One change per file, in order.
    /// - Throws: ``TrustStoreError`` when the store cannot be written; nothing is then recorded.
    package func trust(_ files: [String], isolation: IsolationOptions, policy: IsolationPolicy) async throws(TrustStoreError) -> [TrustChange] {
        let store = try storeToChange()
        // Checked as if the store said nothing of them: a file that changed is what a new vouch is for.
        let checking = PluginTrust(allowlist: trust.allowlist, store: nil, currentUser: trust.rules.currentUser)
        let loader = IsolatedPluginLoader(services: services, trust: checking, options: isolation)
        var checked: [(file: String, path: String, result: Checked)] = []
        for file in files {
            let path = PluginLock.canonical(file)
            let placement = placement(of: file, trust: trust, policy: policy)
            if placement.voucher == .bundled {
                checked.append((file, path, .bundled(placement)))
                continue
            }
            if let refusal = TrustStore.unstorableName(path) {
                checked.append((file, path, .refused(refusal)))
                continue
            }
            checked.append((file, path, await check(file, loader: loader, trust: checking).checked))
        }
        let (before, after) = try TrustStore.update(at: store.path, rules: trust.rules, naming: names) { digests in
            for entry in checked {
                if case .passed(let sha256) = entry.result { digests[entry.path] = sha256 }
            }
        }
        return checked.map { entry in
            let outcome: TrustChange.Outcome
            switch entry.result {
            case .bundled(let placement): outcome = .bundled(placement)
            case .refused(let reason): outcome = .refused(reason)
            case .passed(let sha256):
                let now = placement(of: entry.file, trust: trust.with(store: after), policy: policy)
                let held = before.trustedDigest(for: entry.file)
                if held == sha256 {
                    outcome = .alreadyTrusted(sha256: sha256, placement: now)
                } else {
                    let was = placement(of: entry.file, trust: trust.with(store: before), policy: policy)
                    outcome = .trusted(sha256: sha256, before: was, after: now, replaced: held)
                }
            }
            return TrustChange(path: entry.path, outcome: outcome)
        }
    }

    /// What checking one file before vouching for it (or granting it a URL) found.
    enum Checked {
        /// It passed, with this SHA-256.
        case passed(String)
        /// Bundled with the host: its location vouches, nothing to record.
        case bundled(Placement)
        /// It failed a check, worded in one line.
        case refused(String)
    }

    /// The host's checks on `file`, then a load in a sandboxed worker; its
    /// SHA-256 when both pass, and what the worker reported of the plugin.
    func check(_ file: String, loader: IsolatedPluginLoader, trust checking: PluginTrust) async -> (checked: Checked, report: PluginReport?) {
        let sha256: String
        let identity: FileIdentity?
        do throws(PluginLoadError) {
            let opened = try PluginFile.open(file, rules: checking.rules, lock: LockFileCache(trust: checking).lock(for: file))
            defer { opened.closeUnloaded() }
            // The lock file or the store may have made it take the digest already.
            if let digest = opened.digest { sha256 = digest } else { sha256 = try opened.sha256() }
            identity = opened.identity()
        } catch {
            return (.refused(error.message(naming: names)), nil)
        }
        let (outcome, _, worker) = await loader.loadOne(file, locks: LockFileCache(trust: checking), expecting: identity)
        await worker?.shutdown()
        switch outcome {
        case .success(let (report, _)): return (.passed(sha256), report)
        case .failure(let failure): return (.refused(failure.message(naming: names)), nil)
        }
    }

    /// Takes back the user's vouch for `files`: they run in sandboxed
    /// workers again (unless bundled, or a switch says otherwise). Runs no
    /// plugin code; a file need not exist any more to be taken out.
    /// - Parameters:
    ///   - files: The files, as the user named them.
    ///   - policy: Where plugins run in this run, for the placements reported.
    /// - Returns: One change per file, in order.
    /// - Throws: ``TrustStoreError`` when the store cannot be written.
    package func untrust(_ files: [String], policy: IsolationPolicy) throws(TrustStoreError) -> [TrustChange] {
        let store = try storeToChange()
        let paths = files.map(PluginLock.canonical)
        let (before, after) = try TrustStore.update(at: store.path, rules: trust.rules, naming: names) { digests in
            for path in paths { digests[path] = nil }
        }
        return zip(files, paths).map { file, path in
            let now = placement(of: file, trust: trust.with(store: after), policy: policy)
            guard before.trustedDigest(for: file) != nil else { return TrustChange(path: path, outcome: .notTrusted(now)) }
            let was = placement(of: file, trust: trust.with(store: before), policy: policy)
            return TrustChange(path: path, outcome: .untrusted(before: was, after: now))
        }
    }

    /// Every file the trust store lists, and whether each still has the
    /// digest vouched for (a file over the size limit is not read, and counts as changed).
    /// - Throws: ``TrustStoreError`` when there is no store, or it cannot be used.
    package func trustedFiles() throws(TrustStoreError) -> [TrustedFile] {
        let store = try storeToChange()
        if case .unusable(let error) = store.contents { throw TrustStoreError(path: store.path, .unusable(error)) }
        return store.entries.map { entry in
            let descriptor = open(entry.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return TrustedFile(path: entry.path, sha256: entry.sha256, status: .missing) }
            defer { close(descriptor) }
            guard let facts = try? FileFacts.of(descriptor: descriptor), facts.kind == .regular else {
                return TrustedFile(path: entry.path, sha256: entry.sha256, status: .missing)
            }
            let actual = facts.size <= TrustRules.maximumPluginSize ? try? FileDigest.sha256(descriptor: descriptor, size: facts.size) : nil
            return TrustedFile(path: entry.path, sha256: entry.sha256, status: actual == entry.sha256 ? .matches : .changed)
        }
    }

    /// The store this host reads, which `trust` and `untrust` change.
    private func storeToChange() throws(TrustStoreError) -> TrustStore {
        guard let store = trust.store else { throw TrustStoreError(path: "", .noConfigurationDirectory) }
        return store
    }

    /// Where one file runs under `trust`, as every path decides it
    /// (`trust`, `untrust`, `allow` and `disallow` report it).
    func placement(of file: String, trust: PluginTrust, policy: IsolationPolicy) -> Placement {
        PlacementRule(policy: policy, trust: trust).placement(
            of: file, origin: PluginDiscovery.origin(ofFile: file), lock: LockFileCache(trust: trust).lock(for: file))
    }
}
