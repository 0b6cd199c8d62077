import PluginBoundary

import Glibc

/// Where the scan cache lives, and how it is read and written so that
/// neither another user nor a crash nor a second host can spoil it.
///
/// - One file per search path: `registry-<digest>.cache` under
///   `$XDG_CACHE_HOME/patchbay/` (`~/.cache/patchbay/`).
/// - Written to a temporary file of mode 0600 in the same directory, then
///   renamed over the old one: a reader sees the old cache or the new one,
///   never half of either, and two hosts racing leave one complete file.
/// - The directory must be the user's and of mode 0700; the file the user's
///   and writable by nobody else. Anything else is refused, not repaired.
struct ScanCacheStore: Sendable {
    /// The cache file.
    let path: String

    /// The file for `searchPath`, in `cacheHome`/patchbay.
    /// - Parameters:
    ///   - cacheHome: `$XDG_CACHE_HOME`, or `$HOME/.cache`.
    ///   - searchPath: The plugin directories, in order; each order has its own file.
    init(cacheHome: String, searchPath: [String]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // FNV-1a: a name, not a secret; the file's contents are checked on read.
        for byte in searchPath.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let name = "registry-" + String(hash, radix: 16) + ".cache"
        path = FilePaths.join(FilePaths.join(cacheHome, "patchbay"), name)
    }

    /// `$XDG_CACHE_HOME`, or `$HOME/.cache`, as the XDG base directory
    /// specification defines the user's cache directory.
    static func cacheHome(xdgCacheHome: String?, home: String?) -> String? {
        if let xdgCacheHome, xdgCacheHome.hasPrefix("/") { return xdgCacheHome }
        guard let home, !home.isEmpty else { return nil }
        return FilePaths.join(home, ".cache")
    }

    /// Why a cache file was not used.
    enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// There is none yet: not worth a warning.
        case missing
        case notOwned(owner: UInt32)
        case writableByOthers(mode: String)
        case notARegularFile
        case unreadable(SystemError)
        case corrupt(String)
        case otherFormat(Int)
        case otherHost
        case otherABI(UInt32)

        var description: String {
            switch self {
            case .missing: "there is none yet"
            case .notOwned(let owner): "it belongs to uid \(owner), not to you"
            case .writableByOthers(let mode): "others may write it (mode \(mode))"
            case .notARegularFile: "it is not a regular file"
            case .unreadable(let error): "it cannot be read (\(error.reason))"
            case .corrupt(let reason): "it is truncated or corrupt (\(reason))"
            case .otherFormat(let format): "it has format \(format), this host reads format \(ScanCache.format)"
            case .otherHost: "another host build wrote it"
            case .otherABI(let abi): "it was made under plugin ABI \(abi)"
            }
        }
    }

    /// Reads the cache, refusing one that is not the user's, that others may
    /// write, that is cut short or corrupt, or that another host or ABI made.
    func read(host: String, abiVersion: UInt32) -> Result<ScanCache, ReadError> {
        // O_NONBLOCK: a named pipe in the cache's place is refused below, not waited on.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return .failure(errno == ENOENT ? .missing : .unreadable(SystemError(operation: "open", errno: errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(SystemError(operation: "stat", errno: errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
        guard status.st_uid == geteuid() else { return .failure(.notOwned(owner: status.st_uid)) }
        guard status.st_mode & 0o022 == 0 else { return .failure(.writableByOthers(mode: String(status.st_mode & 0o7777, radix: 8))) }
        let bytes: [UInt8]
        do {
            guard let read = try Self.readLines(descriptor, size: Int(status.st_size)) else {
                return .failure(.corrupt("a line is longer than \(Self.maximumLineLength >> 20) MiB, longer than any entry the host writes"))
            }
            bytes = read
        } catch {
            return .failure(.unreadable(error))
        }
        let cache: ScanCache
        do {
            cache = try ScanCacheCodec.decode(bytes)
        } catch {
            return .failure(.corrupt(error.description))
        }
        guard cache.format == ScanCache.format else { return .failure(.otherFormat(cache.format)) }
        guard cache.host == host else { return .failure(.otherHost) }
        guard cache.abiVersion == abiVersion else { return .failure(.otherABI(cache.abiVersion)) }
        return .success(cache)
    }

    /// Writes the cache atomically, creating its directory (mode 0700) if needed.
    /// - Throws: ``WriteError`` when the directory is not the user's or the
    ///   file cannot be written; the old cache, if any, is then untouched.
    func write(_ cache: ScanCache) throws(WriteError) {
        let directory = FilePaths.directory(of: path)
        try Self.prepare(directory: directory)
        let data = ScanCacheCodec.encode(cache, reusingReadLines: true)
        let temporary = FilePaths.join(directory, ".\(FilePaths.name(of: path)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: temporary, .system(SystemError(operation: "create", errno: errno))) }
        let failure: Int32? = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32? in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let count = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            // No fsync: a cache torn by a crash is refused as corrupt and
            // rebuilt, and a rescan should not wait on the disk.
            return nil
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw WriteError(path: temporary, .system(SystemError(operation: "write", errno: failure)))
        }
        guard rename(temporary, path) == 0 else {
            let error = SystemError(operation: "rename", errno: errno)
            unlink(temporary)
            throw WriteError(path: path, .system(error))
        }
    }

    /// Why the cache could not be written.
    struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        enum Kind: Sendable, Equatable {
            case system(SystemError)
            case notADirectory
            case notOwned(owner: UInt32)
            /// A directory named `patchbay` others may enter: its mode, in octal.
            case openToOthers(mode: String)
        }

        let path: String
        let kind: Kind

        init(path: String, _ kind: Kind) {
            self.path = path
            self.kind = kind
        }

        var description: String {
            let reason =
                switch kind {
                case .system(let error): error.reason
                case .notADirectory: "it is not a directory"
                case .notOwned(let owner): "it belongs to uid \(owner), not to you"
                case .openToOthers(let mode): "its mode is \(mode), not 700; run `chmod 700 \(path)`"
                }
            return "cannot write the plugin cache \(path): \(reason)"
        }
    }

    /// Creates `directory` and its parents with mode 0700, and checks that
    /// the directory is the user's and open to nobody else.
    private static func prepare(directory: String) throws(WriteError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            if errno == ENOENT {
                try prepare(directory: FilePaths.directory(of: directory))
                if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                    throw WriteError(path: directory, .system(SystemError(operation: "create", errno: errno)))
                }
            } else {
                throw WriteError(path: directory, .system(SystemError(operation: "create", errno: errno)))
            }
        }
        var status = stat()
        guard lstat(directory, &status) == 0 else { throw WriteError(path: directory, .system(SystemError(operation: "create", errno: errno))) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: directory, .notADirectory) }
        guard status.st_uid == geteuid() else { throw WriteError(path: directory, .notOwned(owner: status.st_uid)) }
        guard status.st_mode & 0o077 == 0 || FilePaths.name(of: directory) != "patchbay" else {
            throw WriteError(path: directory, .openToOthers(mode: String(status.st_mode & 0o7777, radix: 8)))
        }
    }

    /// The longest line a cache may hold. An entry is one plugin file: its
    /// path, names and fetchers, a few KiB; a line of megabytes is no cache
    /// the host wrote, and is refused after at most this much of it is read.
    static let maximumLineLength = 4 << 20

    /// The file's bytes, read in chunks as they come; nil as soon as a line
    /// runs past ``maximumLineLength``, so a planted 50 MB line costs 4 MiB
    /// of reading, not all of it.
    /// - Parameter size: From `fstat`: what to expect, not what to allocate.
    private static func readLines(_ descriptor: Int32, size: Int) throws(SystemError) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(size, maximumLineLength))
        // A cache of the size `fstat` gave is read in one call, as before.
        var chunk = [UInt8](repeating: 0, count: min(max(size + 1, 1 << 16), maximumLineLength))
        var lineStart = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError(operation: "read", errno: errno)
            }
            // The end; a file cut short since the fstat is refused by the decoder.
            if count == 0 { return bytes }
            let offset = bytes.count
            bytes += chunk[0..<count]
            // Every line this chunk ends, then the one it leaves open.
            for index in offset..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
                guard index - lineStart <= maximumLineLength else { return nil }
                lineStart = index + 1
            }
            guard bytes.count - lineStart <= maximumLineLength else { return nil }
        }
    }
}
