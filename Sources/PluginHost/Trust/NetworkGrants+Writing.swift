import PluginBoundary
import Glibc

extension NetworkGrants {
    /// Changes the grants at `path` and writes them back, atomically, under
    /// a lock on their directory, as ``TrustStore`` is changed: the directory
    /// is created (0700) when needed and must pass the rules the grants are
    /// read under; grants that cannot be read are left alone.
    /// - Parameters:
    ///   - path: The grants' path.
    ///   - rules: The ownership and permission rules.
    ///   - change: Edits the grants, by canonical plugin path.
    /// - Returns: The grants before and after the change.
    /// - Throws: ``TrustStoreError`` when the file or its directory is not
    ///   to be trusted, or cannot be read or written.
    static func update(
        at path: String, rules: TrustRules, _ change: (inout [String: NetworkGrant]) -> Void
    ) throws(TrustStoreError) -> (before: NetworkGrants, after: NetworkGrants) {
        do throws(TrustStoreError) {
            let directory = FilePaths.directory(of: path)
            try TrustStore.prepare(directory: directory, for: path, rules: rules, guarded: .networkGrants(path))
            let lock = try TrustStore.lockDirectory(directory)
            defer { close(lock) }
            let before = read(at: path, rules: rules)
            let current: [String: NetworkGrant]
            switch before.contents {
            case .grants(let grants): current = grants
            case .unusable(let error): throw TrustStoreError(path: path, .unusable(error))
            }
            var grants = current
            change(&grants)
            let after = NetworkGrants(path: path, contents: .grants(grants))
            guard grants != current else { return (before, after) }
            do {
                try AtomicFile.write(render(grants), to: path, mode: 0o600)
            } catch {
                throw TrustStoreError(path: path, .system(error))
            }
            return (before, after)
        } catch {
            var error = error
            error.what = "your network grants"
            throw error
        }
    }
}
