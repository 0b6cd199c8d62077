import PluginBoundary

import Glibc

extension TrustStore {
    /// Changes the store at `path` and writes it back, atomically, while
    /// holding a lock on its directory, so two `host trust` runs at once
    /// both land.
    ///
    /// The directory is created (mode 0700, its missing parents too) when
    /// needed, and must then pass the rules a store is read under: the
    /// store is never written where it would not be believed. An existing
    /// store that cannot be read is left alone rather than overwritten.
    /// - Parameters:
    ///   - path: The store's path.
    ///   - rules: The ownership and permission rules.
    ///   - names: The program's names, for the comment at the top of the file.
    ///   - change: Edits the digests, by canonical plugin path.
    /// - Returns: The store before and after the change.
    /// - Throws: ``TrustStoreError`` when the store or its directory is not
    ///   to be trusted, or cannot be read or written.
    static func update(
        at path: String, rules: TrustRules, naming names: SettingNames, _ change: (inout [String: String]) -> Void
    ) throws(TrustStoreError) -> (before: TrustStore, after: TrustStore) {
        let directory = FilePaths.directory(of: path)
        try prepare(directory: directory, for: path, rules: rules)
        let lock = try lockDirectory(directory)
        defer { close(lock) }

        let before = read(at: path, rules: rules)
        let current: PluginLock
        switch before.contents {
        case .entries(let lock): current = lock
        case .unusable(let error): throw TrustStoreError(path: path, .unusable(error))
        }
        var digests = current.digests
        change(&digests)
        let after = TrustStore(path: path, contents: .entries(PluginLock(path: path, digests: digests)))
        guard digests != current.digests else { return (before, after) }
        do {
            try AtomicFile.write(render(digests, naming: names), to: path, mode: 0o600)
        } catch {
            throw TrustStoreError(path: path, .system(error))
        }
        return (before, after)
    }

    /// Opens `directory` and takes an exclusive lock on it, which closing
    /// the descriptor returned gives back: the trust store and the network
    /// grants are each changed under their directory's lock.
    static func lockDirectory(_ directory: String) throws(TrustStoreError) -> Int32 {
        let lock = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw TrustStoreError(path: directory, .system(SystemError(operation: "open", errno: errno))) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let error = SystemError(operation: "lock", errno: errno)
                close(lock)
                throw TrustStoreError(path: directory, .system(error))
            }
        }
        return lock
    }

    /// Creates the store's directory if needed and checks the way to the
    /// store, its directory and every directory above it, exactly as a read
    /// of the store will (``PathWalk/into(_:)``): a store is never written
    /// where it would not be believed, nor refused where it would be (a
    /// sticky, shared `XDG_CONFIG_HOME` whose `patchbay` is the user's).
    /// - Parameter guarded: What the file is, for a refusal to name; the trust store by default.
    static func prepare(directory: String, for path: String, rules: TrustRules, guarded: TrustViolation.Guarded? = nil) throws(TrustStoreError) {
        try makeDirectories(directory)
        let walk: PathWalk
        do throws(PathWalkError) {
            walk = try PathWalk.walk(directory).into(FilePaths.name(of: path))
        } catch {
            throw TrustStoreError(path: error.path, .system(error.error))
        }
        if let violation = rules.violation(onTheWay: walk, to: guarded ?? .trustStore(path)) {
            throw TrustStoreError(path: path, .untrusted(violation))
        }
    }

    /// `mkdir -p` with mode 0700 for whatever is missing, as the XDG
    /// specification asks of a configuration directory it creates.
    private static func makeDirectories(_ directory: String) throws(TrustStoreError) {
        var status = stat()
        if stat(directory, &status) == 0 { return }
        let parent = FilePaths.directory(of: directory)
        if parent != directory { try makeDirectories(parent) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw TrustStoreError(path: directory, .system(SystemError(operation: "create", errno: errno)))
        }
    }
}
