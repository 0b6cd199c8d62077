import PluginBoundary

extension Host {
    /// Lets one plugin file nobody vouched for fetch under `url`, or under
    /// the API base it declares, while it keeps running in its sandboxed
    /// worker: records the file's SHA-256 and the URL in the user's network
    /// grants, after checking the file as `trust` does (the trust rules and
    /// ELF headers, then a load in a sandboxed worker, which must register a
    /// fetcher and tells the declared base).
    /// - Parameters:
    ///   - file: The plugin file, as the user named it.
    ///   - url: The prefix to grant, already checked with `APIBases.check(_:entry:)`; nil for the declared base.
    ///   - isolation: How the checking worker runs.
    ///   - policy: Where plugins run in this run, for the placement reported.
    /// - Returns: What was done.
    /// - Throws: ``TrustStoreError`` when the grants cannot be written.
    package func allow(_ file: String, url: String?, isolation: IsolationOptions, policy: IsolationPolicy) async throws(TrustStoreError) -> NetworkGrantChange {
        let grants = try grantsToChange()
        let path = PluginLock.canonical(file)
        let placement = placement(of: file, trust: trust, policy: policy)
        guard placement.voucher == .nobody else { return NetworkGrantChange(path: path, outcome: .needsNone(placement)) }
        if let problem = PluginLock.unwritable(name: path) {
            let refusal = "its name holds \(problem), which a line of your network grants cannot hold; rename the file without it, then allow it"
            return NetworkGrantChange(path: path, outcome: .refused(refusal))
        }
        // Checked as if nothing vouched for it or granted it anything, as `trust` checks a file.
        let checking = PluginTrust(allowlist: trust.allowlist, store: nil, currentUser: trust.rules.currentUser)
        let loader = IsolatedPluginLoader(services: services, trust: checking, options: isolation)
        let sha256: String
        let declared: String?
        switch await check(file, loader: loader, trust: checking) {
        case (.passed(let digest), let report):
            sha256 = digest
            declared = report?.metadata?.apiBaseURL.flatMap { $0.isEmpty ? nil : APIBase($0, .declared).url }
        case (.refused(let reason), _):
            return NetworkGrantChange(path: path, outcome: .refused(reason))
        case (.bundled(let placement), _):
            return NetworkGrantChange(path: path, outcome: .needsNone(placement))
        }
        guard let granted = url ?? declared else {
            return NetworkGrantChange(
                path: path, outcome: .refused("it declares no API base (api_base_url) to allow; name the URL it may fetch under with --url URL"))
        }
        if url == nil {
            do throws(APIBaseError) {
                try APIBases.check(granted, entry: granted)
            } catch {
                return NetworkGrantChange(path: path, outcome: .refused(error.message(naming: "the API base it declares,")))
            }
            if let reach = (try? StrictURL(granted))?.reachUnasked {
                let refusal = "it declares the API base \(granted), which reaches \(reach); a plugin nobody vouched for is granted that only "
                    + "when you name the URL yourself: add --url URL if you mean it"
                return NetworkGrantChange(path: path, outcome: .refused(refusal))
            }
        }
        let (before, _) = try NetworkGrants.update(at: grants.path, rules: trust.rules) { $0[path] = NetworkGrant(sha256: sha256, url: granted) }
        let replaced = before.grant(for: path).flatMap { $0 == NetworkGrant(sha256: sha256, url: granted) ? nil : $0 }
        return NetworkGrantChange(path: path, outcome: .allowed(url: granted, sha256: sha256, placement: placement, replaced: replaced))
    }

    /// Takes back the user's network grant for `file`. Runs no plugin
    /// code; the file need not exist any more.
    /// - Parameters:
    ///   - file: The file, as the user named it.
    ///   - policy: Where plugins run in this run, for the placement reported.
    /// - Returns: What was done.
    /// - Throws: ``TrustStoreError`` when the grants cannot be written.
    package func disallow(_ file: String, policy: IsolationPolicy) throws(TrustStoreError) -> NetworkGrantChange {
        let grants = try grantsToChange()
        let path = PluginLock.canonical(file)
        let (before, _) = try NetworkGrants.update(at: grants.path, rules: trust.rules) { $0[path] = nil }
        let placement = placement(of: file, trust: trust, policy: policy)
        guard let held = before.grant(for: path) else { return NetworkGrantChange(path: path, outcome: .notAllowed(placement)) }
        return NetworkGrantChange(path: path, outcome: .disallowed(url: held.url, placement: placement))
    }

    /// The grants this host reads, which `allow` and `disallow` change.
    private func grantsToChange() throws(TrustStoreError) -> NetworkGrants {
        guard let grants = trust.grants else {
            var error = TrustStoreError(path: "", .noConfigurationDirectory)
            error.what = "your network grants"
            throw error
        }
        return grants
    }
}
