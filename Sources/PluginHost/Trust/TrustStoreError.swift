import PluginBoundary

/// Why the trust store could not be changed. Nothing was written.
package struct TrustStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        /// The store, or a directory on the way to it, breaks a trust rule.
        case untrusted(TrustViolation)
        /// The store exists but cannot be read, so it is not overwritten.
        case unusable(LockFileError)
        /// A system call failed.
        case system(SystemError)
        /// Neither `$XDG_CONFIG_HOME` nor `$HOME` says where the store is.
        case noConfigurationDirectory
    }

    /// The file or directory involved.
    let path: String
    let kind: Kind
    /// What could not be changed: "your trust store", or "your network grants".
    var what = "your trust store"

    init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    package var description: String { message(naming: SettingNames()) }

    /// One line with the fix, naming the program's commands.
    package func message(naming names: SettingNames) -> String {
        switch kind {
        case .untrusted(let violation): "cannot change \(what): \(violation)"
        case .unusable(let error): "cannot change \(what): \(error.message(naming: names))"
        case .system(let error): "cannot change \(what): \(path): \(error); check that you may write there"
        case .noConfigurationDirectory: "there is no trust store: neither XDG_CONFIG_HOME nor HOME is set; set one of them"
        }
    }
}
