import FoundationEssentials

import Glibc

/// A plugin file opened once, checked, and then loaded from the very same
/// open file description.
///
/// `dlopen` trusts its input: a truncated ELF file maps segments past the
/// end of the file and the first touch is a SIGBUS that kills the host. So
/// before anything is mapped, the headers are read and every loadable
/// segment is checked to lie inside the file. Loading goes through
/// `/proc/self/fd/N` so what was checked is what is loaded, even if the path
/// is replaced in between.
struct PluginFile {
    /// The open descriptor. Kept open for the life of the process: glibc
    /// recognises an already-loaded library by its path string, so a reused
    /// `/proc/self/fd/N` name would hand back the earlier plugin.
    let descriptor: Int32
    /// The file size when it was checked.
    let size: Int
    /// Its SHA-256, when a lock file applied and it matched.
    private(set) var digest: String?

    /// The path `dlopen` loads this file through.
    var loadPath: String { "/proc/self/fd/\(descriptor)" }

    /// Opens `path` read-only, makes the trust checks on the open
    /// descriptor, and checks that it is a complete shared library for this
    /// machine.
    ///
    /// In order: a symlink is resolved and its target opened without
    /// following further links; the file must be a regular file, and it and
    /// its directory (and a symlink target's directory) must pass
    /// ``TrustRules``; when a lock file applies, the SHA-256 of this same
    /// descriptor must match it; last, the ELF headers are checked.
    /// - Parameters:
    ///   - path: The plugin file as found.
    ///   - rules: The ownership and permission rules.
    ///   - lock: The lock file that applies, if any, or why it is unusable.
    /// - Throws: ``PluginLoadError`` saying which check failed and how to fix it.
    static func open(
        _ path: String, rules: TrustRules, lock: ApplicableLock = .unlocked
    ) throws(PluginLoadError) -> PluginFile {
        let (target, link) = try resolve(path)
        // O_NONBLOCK: opening a named pipe must not wait for a writer.
        // O_NOFOLLOW: a symlink swapped in after `resolve` fails here.
        let descriptor = Glibc.open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if let link { throw PluginLoadError(.untrusted(TrustViolation(.plugin(path: link), .danglingSymlink(target: target, reason: reason)))) }
            throw PluginLoadError(.notALibrary(reason: "cannot open it: \(reason)"))
        }
        do throws(PluginLoadError) {
            let facts: FileFacts
            do {
                facts = try FileFacts.of(descriptor: descriptor)
            } catch {
                throw PluginLoadError(.notALibrary(reason: error.description))
            }
            let subject: TrustViolation.Subject = link.map { .symlinkTarget(link: $0, target: target) } ?? .plugin(path: path)
            if let violation = rules.violation(of: facts, for: subject) { throw PluginLoadError(.untrusted(violation)) }
            try checkDirectories(of: path, target: link == nil ? nil : target, rules: rules)

            var file = PluginFile(descriptor: descriptor, size: facts.size)
            file.digest = try file.verify(against: lock, path: path)
            try ELFHeaderCheck(file: file).run()
            return file
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Takes over a descriptor another process checked and passed on, as an
    /// isolated worker does with the one its host opened.
    /// - Throws: ``PluginLoadError`` when it is not a complete shared library.
    static func adopt(descriptor: Int32) throws(PluginLoadError) -> PluginFile {
        let facts: FileFacts
        do {
            facts = try FileFacts.of(descriptor: descriptor)
        } catch {
            throw PluginLoadError(.notALibrary(reason: error.description))
        }
        let file = PluginFile(descriptor: descriptor, size: facts.size)
        try ELFHeaderCheck(file: file).run()
        return file
    }

    /// The SHA-256 of the whole file, read through this descriptor.
    func sha256() throws(PluginLoadError) -> String {
        do {
            return try FileDigest.sha256(descriptor: descriptor, size: size)
        } catch {
            throw PluginLoadError(.notALibrary(reason: error.description))
        }
    }

    /// Closes a file that was never passed to `dlopen` (see ``descriptor``
    /// for why a loaded one stays open).
    func closeUnloaded() {
        close(descriptor)
    }

    /// The file `path` names and, when `path` is a symlink, the link itself.
    private static func resolve(_ path: String) throws(PluginLoadError) -> (target: String, link: String?) {
        let facts: FileFacts
        do {
            facts = try FileFacts.of(linkAt: path)
        } catch {
            throw PluginLoadError(.notALibrary(reason: "cannot open it: \(error.reason)"))
        }
        guard facts.kind == .symbolicLink else { return (path, nil) }
        guard let resolved = realpath(path, nil) else {
            let reason = String(cString: strerror(errno))
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "its target"
            throw PluginLoadError(.untrusted(TrustViolation(.plugin(path: path), .danglingSymlink(target: target, reason: reason))))
        }
        defer { free(resolved) }
        return (String(cString: resolved), path)
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
            throw PluginLoadError(.notALibrary(reason: "cannot open its directory \(path): \(String(cString: strerror(errno)))"))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PluginLoadError(.notALibrary(reason: "cannot stat its directory \(path): \(String(cString: strerror(errno)))"))
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
    /// registry cache makes them on every run, since the cache keys on the
    /// file alone.
    /// - Parameter checked: Directories already found fine in this run.
    /// - Parameter isSymbolicLink: What discovery found `path` to be; a plain
    ///   file needs no second look.
    static func checkPlacement(of path: String, isSymbolicLink: Bool, rules: TrustRules, checked: inout Set<String>) throws(PluginLoadError) {
        let (target, link) = isSymbolicLink ? try resolve(path) : (path, nil)
        if link == nil {
            let directory = parent(of: path)
            guard !checked.contains(directory) else { return }
            try checkDirectories(of: path, target: nil, rules: rules)
            checked.insert(directory)
        } else {
            try checkDirectories(of: path, target: target, rules: rules)
        }
    }

    /// Reads exactly `count` bytes at `offset`, or nil past the end.
    func read(_ count: Int, at offset: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return read == count ? bytes : nil
    }
}

/// The checks `dlopen` does not make before mapping a file.
private struct ELFHeaderCheck {
    let file: PluginFile

    func run() throws(PluginLoadError) {
        guard file.size > 0 else { throw failure("the file is empty") }
        guard let header = file.read(64, at: 0) else { throw failure("the file is too short for an ELF header (\(file.size) bytes)") }
        guard header[0...3] == [0x7F, 0x45, 0x4C, 0x46] else { throw failure("it is not an ELF file") }
        guard header[4] == 2, header[5] == 1 else { throw failure("it is not a 64-bit little-endian ELF file") }
        guard word16(header, 16) == 3 else { throw failure("it is an ELF file but not a shared library") }
        let machine = word16(header, 18)
        guard machine == Self.hostMachine else {
            throw failure("it is built for ELF machine \(machine), and this host is ELF machine \(Self.hostMachine)")
        }
        let entrySize = Int(word16(header, 54))
        let count = Int(word16(header, 56))
        // `Int(exactly:)`: an offset past Int.max is past any file, not a trap.
        guard entrySize >= 56, let programHeaders = Int(exactly: word64(header, 32)), let table = file.read(entrySize * count, at: programHeaders) else {
            throw failure("it is truncated: its program headers end past the end of the file (\(file.size) bytes)")
        }
        for index in 0..<count {
            let entry = Array(table[(index * entrySize)..<(index * entrySize + 56)])
            let type = word32(entry, 0)
            let offset = word64(entry, 8)
            let fileSize = word64(entry, 32)
            // PT_LOAD and PT_DYNAMIC are what the loader maps and reads.
            guard type == 1 || type == 2 else { continue }
            let (end, overflow) = offset.addingReportingOverflow(fileSize)
            guard !overflow, end <= UInt64(file.size) else {
                throw failure("it is truncated: segment \(index) ends at byte \(end), but the file has \(file.size) bytes")
            }
        }
    }

    private func failure(_ reason: String) -> PluginLoadError {
        PluginLoadError(.notALibrary(reason: reason))
    }

    private func word16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private func word32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    private func word64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }

    #if arch(x86_64)
    static let hostMachine: UInt16 = 62
    #elseif arch(arm64)
    static let hostMachine: UInt16 = 183
    #else
    static let hostMachine: UInt16 = 0
    #endif
}
