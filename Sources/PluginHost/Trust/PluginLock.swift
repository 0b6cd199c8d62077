import FoundationEssentials
import PluginBoundary
import Glibc

/// A lock file: the SHA-256 of every plugin file the user has vetted.
///
/// The format is what `sha256sum` prints, so `sha256sum -c` checks a lock
/// file by hand (run it in the lock file's directory):
///
/// ```
/// 3f7a…c9e1  libBitcoinPlugin.so
/// 0b12…77d0  libEthereumPlugin.so
/// ```
///
/// One line per file: 64 hexadecimal digits, two spaces (or a space and `*`,
/// sha256sum's binary mode), and the file's name. A relative name is relative
/// to the lock file's directory; an absolute one names any file. Blank lines
/// and lines starting with `#` are ignored. Names containing a line break,
/// another control character or a backslash (which sha256sum would escape)
/// are refused, by `host trust` and `host lock-plugins` alike (``unwritable(name:)``).
///
/// A plugin is looked up by its path as found, with the directory part
/// resolved, so a symlinked plugin is locked under the link's name and
/// checked against the content of its target.
struct PluginLock: Sendable {
    /// The name of the per-directory lock file.
    static let fileName = "plugins.lock"

    /// The lock file's path, as given.
    let path: String
    /// What the file is to the host.
    var role: LockFileError.Role = .lockFile
    /// Lower-case hex digest by canonical plugin path.
    let digests: [String: String]

    /// A lock holding `digests`, keyed by canonical plugin path.
    init(path: String, digests: [String: String]) {
        self.path = path
        self.digests = digests
    }

    /// The digest the lock expects for `pluginPath`, or nil when it is not listed.
    func expectedDigest(for pluginPath: String) -> String? {
        // Canonical paths cost a realpath each: none for an empty lock (a trust store not written yet).
        guard !digests.isEmpty else { return nil }
        return digests[Self.canonical(pluginPath)]
    }

    /// Reads and checks the lock file at `path`.
    ///
    /// The lock file gets the same trust checks as a plugin, on every
    /// directory on the way to it too: whoever can write it, or swap it,
    /// can allow any plugin (or, for the trust store, vouch for one).
    /// - Parameters:
    ///   - path: The lock file.
    ///   - rules: The ownership and permission rules.
    ///   - role: What the file is to the host, for the words of a refusal.
    /// - Throws: ``LockFileError`` when it cannot be read, is not trusted, or a line is malformed.
    static func read(at path: String, rules: TrustRules, as role: LockFileError.Role = .lockFile) throws(LockFileError) -> PluginLock {
        try parse(text(at: path, rules: rules, as: role), path: path, role: role)
    }

    /// The text of the file at `path`, read under the checks ``read(at:rules:as:)``
    /// makes: the network grants share them, not the format.
    static func text(at path: String, rules: TrustRules, as role: LockFileError.Role) throws(LockFileError) -> String {
        let walk: PathWalk
        do throws(PathWalkError) {
            walk = try PathWalk.walk(path)
        } catch {
            throw LockFileError(path: path, role: role, .unreadable(error.error))
        }
        if let violation = rules.violation(onTheWay: walk, to: role.guarded(path)) {
            throw LockFileError(path: path, role: role, .untrusted(violation))
        }
        let descriptor = open(walk.target, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { throw LockFileError(path: path, role: role, .unreadable(SystemError(operation: "open", errno: errno))) }
        defer { close(descriptor) }
        let facts: FileFacts
        do {
            facts = try FileFacts.of(descriptor: descriptor)
        } catch {
            throw LockFileError(path: path, role: role, .unreadable(error))
        }
        if let violation = rules.violation(of: facts, for: role.subject(path)) {
            throw LockFileError(path: path, role: role, .untrusted(violation))
        }
        guard facts.size <= maximumSize else { throw LockFileError(path: path, role: role, .tooLarge(limit: maximumSize)) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
                guard bytes.count <= maximumSize else { throw LockFileError(path: path, role: role, .tooLarge(limit: maximumSize)) }
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw LockFileError(path: path, role: role, .unreadable(SystemError(operation: "read", errno: errno)))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A lock file is a few lines per plugin; anything bigger is a mistake.
    static let maximumSize = 1 << 20

    /// Parses the text of a lock file.
    static func parse(_ text: String, path: String, role: LockFileError.Role = .lockFile) throws(LockFileError) -> PluginLock {
        let base = directory(of: path)
        var digests: [String: String] = [:]
        var lineOf: [String: Int] = [:]
        // NB: split the bytes, not the Characters: "\r\n" is one Character,
        // so a CRLF file split on "\n" was one long line.
        for (index, bytes) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let rawLine = String(decoding: bytes, as: UTF8.self)
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            let number = index + 1
            let utf8 = Array(line.utf8)
            guard utf8.count > 66, utf8[0..<64].allSatisfy(isHexDigit), utf8[64] == UInt8(ascii: " "),
                utf8[65] == UInt8(ascii: " ") || utf8[65] == UInt8(ascii: "*")
            else {
                throw LockFileError(path: path, role: role, .malformed(line: number))
            }
            let digest = String(decoding: utf8[0..<64], as: UTF8.self).lowercased()
            let name = String(decoding: utf8[66...], as: UTF8.self)
            let key = canonical(name.hasPrefix("/") ? name : base + "/" + name)
            if let earlier = lineOf[key] {
                throw LockFileError(path: path, role: role, .duplicate(name: name, lines: (earlier, number)))
            }
            lineOf[key] = number
            digests[key] = digest
        }
        var lock = PluginLock(path: path, digests: digests)
        lock.role = role
        return lock
    }

    /// The lines of a lock file, sorted by name.
    /// - Parameter entries: Digest (lower-case hex) and name as it should appear.
    static func render(_ entries: [(digest: String, name: String)]) -> String {
        entries.sorted { $0.name < $1.name }.map { "\($0.digest)  \($0.name)\n" }.joined()
    }

    /// The name a lock file at `lockPath` uses for `pluginPath`: the bare file
    /// name when the plugin sits beside the lock file, else an absolute path.
    static func entryName(for pluginPath: String, inLockAt lockPath: String) -> String {
        let plugin = canonical(absolute(pluginPath))
        let name = URL(filePath: plugin).lastPathComponent
        return directory(of: plugin) == FilePaths.resolved(directory(of: absolute(lockPath))) ? name : plugin
    }

    /// What in `name` a line of a lock file or the trust store cannot hold
    /// as it is (sha256sum would escape it), or nil when nothing: "a line
    /// break", which splits the line in two (a carriage return at its end
    /// reads as a CRLF ending); "a control character", which no one reads
    /// as written; "a backslash". By bytes: "\r\n" is one Character, which
    /// neither "\r" nor "\n" matches.
    static func unwritable(name: String) -> String? {
        if name.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) { return "a line break" }
        if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "a control character" }
        if name.utf8.contains(UInt8(ascii: "\\")) { return "a backslash" }
        return nil
    }

    /// `path` with its directory part resolved (symlinks, `..`), the last
    /// component kept as is.
    static func canonical(_ path: String) -> String {
        let absolutePath = absolute(path)
        let name = URL(filePath: absolutePath).lastPathComponent
        return FilePaths.resolved(directory(of: absolutePath)) + (directory(of: absolutePath) == "/" ? "" : "/") + name
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    private static func directory(of path: String) -> String {
        FilePaths.directory(of: absolute(path))
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
