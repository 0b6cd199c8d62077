import FoundationEssentials
import PluginBoundary

import Glibc

/// A plugin file opened once, checked, and then loaded from the very same
/// open file description.
///
/// `dlopen` trusts its input: a truncated ELF file maps segments past the
/// end of the file and the first touch is a SIGBUS that kills the host. So
/// before anything is mapped, ``ELFHeaderCheck`` reads the headers and checks
/// that every loadable segment lies inside the file. Loading goes through
/// `/proc/self/fd/N` so what was checked is what is loaded, even if the path
/// is replaced in between.
struct PluginFile {
    /// The open descriptor. Kept open for the life of the process: glibc
    /// recognises an already-loaded library by its path string, so a reused
    /// `/proc/self/fd/N` name would hand back the earlier plugin.
    let descriptor: Int32
    /// The file size when it was checked.
    let size: Int
    /// Its SHA-256, when a lock file applied and it matched, or a network grant applies.
    private(set) var digest: String?
    /// The user's network grant for it, if any, which holds only while
    /// ``digest`` is the one granted (``HostServices/endpoint(for:declared:grant:)``).
    private(set) var granted: NetworkGrant?

    /// The grant and this file's digest, for the endpoint to judge.
    var grantClaim: NetworkGrant.Claim? { granted.map { NetworkGrant.Claim(grant: $0, digest: digest) } }

    /// The path `dlopen` loads this file through.
    var loadPath: String { "/proc/self/fd/\(descriptor)" }

    /// Opens `path` read-only, makes the trust checks on the open
    /// descriptor, and checks that it is a complete shared library for this
    /// machine.
    ///
    /// In order: the way to the file is walked, symlinks followed one by
    /// one (``PathWalk``), and the file at its end opened without following
    /// further links; the file must be a regular file no bigger than
    /// ``TrustRules/maximumPluginSize``, and it, its directory (and a
    /// symlink target's directory) and every other directory on the way
    /// must pass ``TrustRules``; when a lock file or the trust store lists
    /// it, the SHA-256 of this same descriptor must match; last, the ELF
    /// headers are checked.
    /// - Parameters:
    ///   - path: The plugin file as found.
    ///   - rules: The ownership and permission rules.
    ///   - lock: The lock file that applies, if any, or why it is unusable.
    /// - Throws: ``PluginLoadError`` saying which check failed and how to fix it.
    static func open(
        _ path: String, rules: TrustRules, lock: ApplicableLock = .unlocked
    ) throws(PluginLoadError) -> PluginFile {
        let (walk, link) = try resolve(path)
        let target = walk.target
        // O_NONBLOCK: opening a named pipe must not wait for a writer.
        // O_NOFOLLOW: a symlink swapped in after the walk fails here.
        let descriptor = Glibc.open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let error = SystemError(operation: "open", errno: errno)
            if let link { throw PluginLoadError(.untrusted(TrustViolation(.plugin(path: link), .danglingSymlink(target: target, error: error)))) }
            throw PluginLoadError(.unreadable(error))
        }
        do throws(PluginLoadError) {
            let facts: FileFacts
            do {
                facts = try FileFacts.of(descriptor: descriptor)
            } catch {
                throw PluginLoadError(.unreadable(error))
            }
            let subject: TrustViolation.Subject = link.map { .symlinkTarget(link: $0, target: target) } ?? .plugin(path: path)
            // The size rule comes with these, before anything reads the file.
            if let violation = rules.violation(of: facts, for: subject) { throw PluginLoadError(.untrusted(violation)) }
            try checkDirectories(of: path, target: link == nil ? nil : target, rules: rules)
            try checkWay(walk, of: path, rules: rules)

            var file = PluginFile(descriptor: descriptor, size: facts.size)
            file.digest = try file.verify(against: lock, path: path)
            file.granted = lock.granted
            try file.checkELFHeaders()
            return file
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Takes over a descriptor checked elsewhere, and checks its ELF headers.
    /// - Throws: ``PluginLoadError`` when it is not a complete shared library.
    static func adopt(descriptor: Int32) throws(PluginLoadError) -> PluginFile {
        let facts: FileFacts
        do {
            facts = try FileFacts.of(descriptor: descriptor)
        } catch {
            throw PluginLoadError(.unreadable(error))
        }
        let file = PluginFile(descriptor: descriptor, size: facts.size)
        try file.checkELFHeaders()
        return file
    }

    /// ``ELFHeaderCheck`` on this descriptor.
    private func checkELFHeaders() throws(PluginLoadError) {
        do {
            try ELFHeaderCheck(descriptor: descriptor, size: size).run()
        } catch {
            throw PluginLoadError(image: error)
        }
    }

    /// The SHA-256 of the whole file, read through this descriptor.
    func sha256() throws(PluginLoadError) -> String {
        do {
            return try FileDigest.sha256(descriptor: descriptor, size: size)
        } catch {
            throw PluginLoadError(.unreadable(error))
        }
    }

    /// Closes a file that was never passed to `dlopen` (see ``descriptor``
    /// for why a loaded one stays open).
    func closeUnloaded() {
        close(descriptor)
    }

    /// The way to the file `path` names and, when `path` is a symlink, the link itself.
    private static func resolve(_ path: String) throws(PluginLoadError) -> (walk: PathWalk, link: String?) {
        let facts: FileFacts
        do {
            facts = try FileFacts.of(linkAt: path)
        } catch {
            throw PluginLoadError(.unreadable(SystemError(operation: "open", errno: error.code)))
        }
        let link = facts.kind == .symbolicLink ? path : nil
        do throws(PathWalkError) {
            return (try PathWalk.walk(path), link)
        } catch {
            guard let link else { throw PluginLoadError(.untrusted(TrustViolation(.plugin(path: path), .unreachable(path: error.path, error: error.error)))) }
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? "its target"
            throw PluginLoadError(.untrusted(TrustViolation(.plugin(path: link), .danglingSymlink(target: target, error: error.error))))
        }
    }

    /// The directories on the way to the file that ``checkDirectories(of:target:rules:)``
    /// does not hold to the strictest rule: its ancestors, and those holding
    /// a symlink of a chain. The plugin's own directory, and its target's,
    /// that check covers.
    private static func checkWay(_ walk: PathWalk, of path: String, rules: TrustRules) throws(PluginLoadError) {
        let covered: Set = [FilePaths.resolved(parent(of: path)), parent(of: walk.target)]
        if let violation = rules.violation(onTheWay: walk, to: .plugin, skipping: covered) {
            throw PluginLoadError(.untrusted(violation))
        }
    }

    /// The plugins directory, and for a symlink the target's directory too,
    /// must be private to the user or root.
    private static func checkDirectories(of path: String, target: String?, rules: TrustRules) throws(PluginLoadError) {
        let directory = parent(of: path)
        let directoryFacts = try facts(ofDirectory: directory)
        if let violation = rules.violation(of: directoryFacts.facts, for: .directory(path: directory)) {
            throw PluginLoadError(.untrusted(violation))
        }
        guard let target else { return }
        let targetDirectory = parent(of: target)
        let targetFacts = try facts(ofDirectory: targetDirectory)
        guard targetFacts.identity != directoryFacts.identity else { return }
        if let violation = rules.violation(of: targetFacts.facts, for: .targetDirectory(link: path, target: target, directory: targetDirectory)) {
            throw PluginLoadError(.untrusted(violation))
        }
    }

    private static func facts(ofDirectory path: String) throws(PluginLoadError) -> (facts: FileFacts, identity: [UInt64]) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else {
            throw PluginLoadError(.unreadable(SystemError(operation: "open", errno: errno), directory: path))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PluginLoadError(.unreadable(SystemError(operation: "stat", errno: errno), directory: path))
        }
        return (FileFacts(status), [UInt64(status.st_dev), UInt64(status.st_ino)])
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Compares this descriptor's SHA-256 with the lock file's entry.
    private func verify(against applicable: ApplicableLock, path: String) throws(PluginLoadError) -> String? {
        try applicable.verify(path, digest: sha256)
    }

    /// ``open(_:rules:lock:)``, and then a check that the file is still the
    /// one a listing described: a file that changed is refused, never loaded
    /// on the listing's word.
    static func open(_ path: String, rules: TrustRules, lock: ApplicableLock, expecting identity: FileIdentity?) throws(PluginLoadError) -> PluginFile {
        let file = try open(path, rules: rules, lock: lock)
        if let identity, file.identity() != identity {
            file.closeUnloaded()
            throw PluginLoadError(.changedSinceListed)
        }
        return file
    }

    /// What identifies the open file's content, to compare with a listing's.
    func identity() -> FileIdentity? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? FileIdentity(status) : nil
    }

    /// The checks of ``open(_:rules:lock:)`` that depend on where the file
    /// is rather than what it holds: its directory's, and for a symlink its
    /// target directory's, ownership and permissions. A listing from the
    /// scan cache makes them on every run, since the cache keys on the
    /// file alone.
    /// - Parameter checked: Directories already found fine in this run.
    /// - Parameter isSymbolicLink: What discovery found `path` to be; a plain
    ///   file needs no second look.
    static func checkPlacement(of path: String, isSymbolicLink: Bool, rules: TrustRules, checked: inout Set<String>) throws(PluginLoadError) {
        if isSymbolicLink {
            let (walk, _) = try resolve(path)
            try checkDirectories(of: path, target: walk.target, rules: rules)
            try checkWay(walk, of: path, rules: rules)
        } else {
            // The way to every file of a directory is the way to the directory: one walk each.
            let directory = parent(of: path)
            guard !checked.contains(directory) else { return }
            try checkDirectories(of: path, target: nil, rules: rules)
            let walk: PathWalk
            do throws(PathWalkError) {
                walk = try PathWalk.walk(path)
            } catch {
                throw PluginLoadError(.untrusted(TrustViolation(.plugin(path: path), .unreachable(path: error.path, error: error.error))))
            }
            try checkWay(walk, of: path, rules: rules)
            checked.insert(directory)
        }
    }
}
