import Synchronization

/// Where each plugin runs, and who vouched for it: the one rule that
/// in-process and isolated loading, the scan cache's listings, loads on
/// demand, `inspect` and `trust` all ask.
///
/// By default a plugin runs in-process only when someone the user can
/// answer for vouched for it:
/// 1. the build that bundled it beside the host, while the host's directory
///    is the user's or root's and nobody else may write it (``BundledLocation``);
/// 2. the user, in their trust store (`host trust`);
/// 3. the user, in the allowlist they named on the command line.
///
/// Nothing a plugin or a downloaded folder can supply is on that list: a
/// `plugins.lock` beside the plugins only pins them (a changed or unlisted
/// file is refused) and never moves one in-process. Any other plugin runs
/// in a sandboxed worker. ``IsolationPolicy`` can send every plugin one way.
final class PlacementRule: Sendable {
    let policy: IsolationPolicy
    let trust: PluginTrust
    /// The per-directory lock files that pin a plugin nobody vouched for,
    /// which before this rule would have moved it in-process: each is
    /// named once per run (``lockFilesThatOnlyPin``).
    private let onlyPinning = Mutex<[String]>([])

    init(policy: IsolationPolicy, trust: PluginTrust) {
        self.policy = policy
        self.trust = trust
    }

    /// Where the plugin at `path` runs.
    /// - Parameters:
    ///   - path: The file as found.
    ///   - origin: Which place of the search path it was found in.
    ///   - lock: What its digest must match (``LockFileCache/lock(for:)``).
    ///   - notingPins: Whether a lock file that only pins it is noted for
    ///     ``lockFilesThatOnlyPin``; a look ahead of the listing notes none,
    ///     so that the listing names them in its own order.
    func placement(of path: String, origin: PluginDiscovery.Origin, lock: ApplicableLock, notingPins: Bool = true) -> Placement {
        let (voucher, reason) = voucher(of: path, origin: origin, lock: lock)
        switch policy {
        case .everything(let setting): return Placement(.isolated, because: setting, vouchedBy: voucher)
        case .nothing(let setting): return Placement(.inProcess, because: setting, vouchedBy: voucher)
        case .byTrust:
            // Not ./plugins: whoever handed over the folder wrote its lock, and the user needs no nudge to vouch for it.
            if notingPins, voucher == .nobody, origin != .workingDirectory, trust.allowlist == .perDirectory, let pinning = lock.listing(path) {
                onlyPinning.withLock { if !$0.contains(pinning.path) { $0.append(pinning.path) } }
            }
            return Placement(voucher == .nobody ? .isolated : .inProcess, because: reason, vouchedBy: voucher)
        }
    }

    /// Who vouched for the plugin, and why it runs where it does by default.
    private func voucher(of path: String, origin: PluginDiscovery.Origin, lock: ApplicableLock) -> (Placement.Voucher, String) {
        if origin == .bundled {
            guard let refusal = BundledLocation.violation(rules: trust.rules) else { return (.bundled, "bundled with the host") }
            return (.nobody, "nobody vouched for it: bundled, but \(refusal.finding)")
        }
        if let trusted = lock.trusted { return (.trustStore(path: trusted.store), "vouched for in your trust store \(trusted.store)") }
        if case .file(let allowlist) = trust.allowlist, lock.listing(path) != nil {
            return (.allowlist(path: allowlist), "vouched for in the allowlist \(allowlist)")
        }
        return (.nobody, "nobody vouched for it")
    }

    /// The per-directory lock files that pinned a plugin nobody vouched for,
    /// in the order met: such a lock once ran its plugins in-process, and
    /// now only pins them, which the user is told once per run.
    var lockFilesThatOnlyPin: [String] {
        onlyPinning.withLock { $0 }
    }

    /// The line that tells the user a lock file no longer vouches, and how they can.
    static func onlyPinsNotice(_ lock: String, naming names: SettingNames) -> String {
        "\(lock) now only pins the plugins it lists: it no longer runs them in-process, so they run in sandboxed workers; to run one in-process, vouch for it with \(names.trust)"
    }
}
