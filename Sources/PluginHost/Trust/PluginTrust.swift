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
    /// The user's network grants (`host allow`), as read at the start of
    /// the run; nil when there is no configuration directory.
    package let grants: NetworkGrants?
    let rules: TrustRules

    /// Creates a policy for the user this process runs as.
    /// - Parameters:
    ///   - allowlist: Which lock file applies.
    ///   - store: The user's trust store, read with ``TrustStore/read(at:)``.
    ///   - grants: The user's network grants, read with ``NetworkGrants/read(at:)``.
    package init(allowlist: Allowlist = .perDirectory, store: TrustStore? = nil, grants: NetworkGrants? = nil) {
        self.init(allowlist: allowlist, store: store, grants: grants, currentUser: UInt32(geteuid()))
    }

    init(allowlist: Allowlist, store: TrustStore? = nil, grants: NetworkGrants? = nil, currentUser: UInt32) {
        self.allowlist = allowlist
        self.store = store
        self.grants = grants
        self.rules = TrustRules(currentUser: currentUser)
    }

    /// The same policy with another store, as after the user changed it.
    func with(store: TrustStore) -> PluginTrust {
        PluginTrust(allowlist: allowlist, store: store, grants: grants, currentUser: rules.currentUser)
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
