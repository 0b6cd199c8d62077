import Glibc

/// The user's own trust store: the SHA-256 of every plugin file the user
/// vouched for, which may then run in-process.
///
/// It lives where neither a plugin nor a folder someone handed over can
/// write: `$XDG_CONFIG_HOME/patchbay/trusted-plugins`
/// (`~/.config/patchbay/trusted-plugins`), and is used only while it, its
/// directory and every directory above it belong to the user or root and
/// nobody else may write them (`TrustRules`). Its format is a lock
/// file's, with absolute names, so `sha256sum -c` checks it from anywhere:
///
/// ```
/// # Plugin files you vouched for: they run in-process, with your authority.
/// 3f7a…c9e1  /home/me/.local/share/patchbay/plugins/libDogePlugin.so
/// ```
///
/// A file it lists must still have that digest: a changed one is refused,
/// not run sandboxed, until the user vouches for it again or takes the
/// vouch back.
package struct TrustStore: Sendable {
    /// The store's file name in `$XDG_CONFIG_HOME/patchbay`.
    package static let fileName = "trusted-plugins"

    /// The store's path.
    package let path: String
    /// What it holds, or why it cannot be used.
    let contents: Contents

    /// The store as read.
    enum Contents: Sendable {
        /// Its entries; none when the file does not exist yet.
        case entries(PluginLock)
        /// It exists but cannot be believed, so it vouches for nothing.
        case unusable(LockFileError)
    }

    /// The store's path under a configuration directory.
    /// - Parameter configHome: `$XDG_CONFIG_HOME`, or `$HOME/.config`.
    package static func path(configHome: String) -> String {
        FilePaths.join(FilePaths.join(configHome, "patchbay"), fileName)
    }

    /// `$XDG_CONFIG_HOME`, or `$HOME/.config`, as the XDG base directory
    /// specification defines the user's configuration directory; a relative
    /// `XDG_CONFIG_HOME` is ignored, as the specification says. Nil without either.
    package static func configHome(xdgConfigHome: String?, home: String?) -> String? {
        if let xdgConfigHome, xdgConfigHome.hasPrefix("/") { return xdgConfigHome }
        guard let home, !home.isEmpty else { return nil }
        return FilePaths.join(home, ".config")
    }

    /// Reads the store at `path` for the user this process runs as. A
    /// missing file is an empty store; one that cannot be believed is
    /// `Contents.unusable(_:)` and vouches for nothing.
    package static func read(at path: String) -> TrustStore {
        read(at: path, rules: TrustRules(currentUser: UInt32(geteuid())))
    }

    static func read(at path: String, rules: TrustRules) -> TrustStore {
        var status = stat()
        if lstat(path, &status) != 0 && errno == ENOENT {
            return TrustStore(path: path, contents: .entries(PluginLock(path: path, digests: [:])))
        }
        do throws(LockFileError) {
            return TrustStore(path: path, contents: .entries(try PluginLock.read(at: path, rules: rules, as: .trustStore)))
        } catch {
            return TrustStore(path: path, contents: .unusable(error))
        }
    }

    /// The digest the user vouched for at `pluginPath`, or nil when the
    /// store does not list it or cannot be used.
    func trustedDigest(for pluginPath: String) -> String? {
        guard case .entries(let lock) = contents else { return nil }
        return lock.expectedDigest(for: pluginPath)
    }

    /// Why the store cannot be used, worded with the program's names; nil when it can.
    package func problem(naming names: SettingNames) -> String? {
        guard case .unusable(let error) = contents else { return nil }
        return error.message(naming: names)
    }

    /// Every file the store lists, by canonical path, with its digest, sorted by path.
    package var entries: [(path: String, sha256: String)] {
        guard case .entries(let lock) = contents else { return [] }
        return lock.digests.map { (path: $0.key, sha256: $0.value) }.sorted { $0.path < $1.path }
    }

    /// Why `path` cannot be a line of the store, or nil when it can: a line
    /// break in it would split its line in two, and the store would then
    /// vouch for no file of that name; nor may it hold another control
    /// character or a backslash (``PluginLock/unwritable(name:)``, the rule
    /// `host lock-plugins` keeps too). One line, for `host trust` to show.
    static func unstorableName(_ path: String) -> String? {
        guard let what = PluginLock.unwritable(name: path) else { return nil }
        return "its name holds \(what), which a line of the trust store cannot hold; rename the file without it, then trust it"
    }

    /// The text of a store holding `digests`, by canonical path.
    static func render(_ digests: [String: String], naming names: SettingNames) -> String {
        "# Plugin files you vouched for: they run in-process, with your authority.\n"
            + "# Change it with \(names.trust) and \(names.untrust); `sha256sum -c` checks it.\n"
            + PluginLock.render(digests.map { (digest: $0.value, name: $0.key) })
    }
}
