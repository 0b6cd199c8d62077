#if DEBUG || FUZZING
import Glibc
import PluginBoundary
import Synchronization
import WorkerProtocol
@testable import PluginHost

// The scan cache's names; renamed, these lines change.
private typealias Cache = ScanCache
private typealias Codec = ScanCacheCodec
private typealias Store = ScanCacheStore

/// The scan cache as the host reads it from disk: the file reader
/// (`ScanCacheStore.read`) and the codec under it.
///
/// Input: the cache file's bytes.
let registryCacheTarget = FuzzTarget("registry-cache", "ScanCacheStore.read and ScanCacheCodec.decode; input: a cache file") { input throws(PropertyViolation) in
    let bytes = Array(input.remaining())
    let decoded = Result { () throws(Codec.DecodeError) in try Codec.decode(bytes) }
    let read = try withCacheFile(holding: bytes) { store in
        store.read(host: (try? decoded.get())?.host ?? "", abiVersion: (try? decoded.get())?.abiVersion ?? 0)
    }
    switch (decoded, read) {
    case (.success(let cache), .success(let fromFile)):
        try expect(cache == fromFile && cache.format == Cache.format, "the file reader returns what the codec decodes", "\(cache.entries.count) entries")
    case (.success(let cache), .failure(let refusal)):
        try expect(cache.format != Cache.format && refusal == .otherFormat(cache.format), "the file reader refuses a decodable cache only for its format", "\(refusal)")
    case (.failure, .failure(let refusal)):
        guard case .corrupt = refusal else {
            throw PropertyViolation(property: "the file reader calls an undecodable cache corrupt", detail: "\(refusal)")
        }
    case (.failure(let error), .success):
        throw PropertyViolation(property: "the file reader refuses what the codec refuses", detail: "\(error)")
    }
    guard case .success(let cache) = decoded else { return }
    try roundTrips(cache)
}

/// The scan cache as the host writes it: a cache built from the input
/// (texts, numbers, and file identities through the `stat` initializer) is
/// encoded and must decode to itself.
///
/// Input: the host, the ABI version, a search path and entries, each field
/// read as ``FuzzInput`` reads it.
let registryCacheWriterTarget = FuzzTarget("registry-cache-writer", "ScanCacheCodec.encode then decode of any cache; input: the cache's fields") { input throws(PropertyViolation) in
    var cache = Cache(host: input.countedText(), abiVersion: input.integer(), searchPath: (0..<Int(input.byte() % 4)).map { _ in listItem(&input) }, entries: [])
    while !input.isAtEnd && cache.entries.count < 8 {
        cache.entries.append(entry(&input))
    }
    try roundTrips(cache)
}

/// A cache the codec writes decodes to itself, and encodes again to the
/// very same bytes.
private func roundTrips(_ cache: Cache) throws(PropertyViolation) {
    let bytes = Codec.encode(cache)
    let decoded: Cache
    do {
        decoded = try Codec.decode(bytes)
    } catch {
        throw PropertyViolation(property: "the cache the host writes, it reads", detail: "\(error) in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
    try expect(decoded == cache, "a cache reads back as it was written", String(decoding: bytes, as: UTF8.self).debugDescription)
    try expect(Codec.encode(decoded) == bytes, "a cache read back encodes to the same bytes", String(decoding: bytes, as: UTF8.self).debugDescription)
}

/// An item of a list the cache holds as one field (the search path, the
/// warnings): never empty. The format cannot tell a list of one empty text
/// from no list, and the host never writes an empty directory or warning.
private func listItem(_ input: inout FuzzInput) -> String {
    let text = input.countedText()
    return text.isEmpty ? "-" : text
}

/// One entry from the input; its file identity comes from a `stat` as a
/// hostile folder can make it (any size, any times).
private func entry(_ input: inout FuzzInput) -> Cache.Entry {
    var status = stat()
    status.st_dev = input.integer()
    status.st_ino = input.integer()
    status.st_size = input.integer()
    status.st_mtim = timespec(tv_sec: input.integer(), tv_nsec: Int(input.integer(UInt32.self) % 1_000_000_000))
    status.st_ctim = timespec(tv_sec: input.integer(), tv_nsec: Int(input.integer(UInt32.self) % 1_000_000_000))
    let flags = input.byte()
    var entry = Cache.Entry(
        path: input.countedText(), identity: FileIdentity(status), sha256: input.optionalText(), name: input.countedText(),
        version: input.optionalText(), abiVersion: flags & 1 == 0 ? nil : input.integer(),
        fetchers: (0..<Int(input.byte() % 3)).map { _ in Cache.Fetcher(symbol: input.countedText(), displayName: input.countedText(), rank: input.integer()) },
        status: flags & 2 == 0 ? .loaded : .failed, error: input.optionalText())
    entry.warnings = (0..<Int(input.byte() % 3)).map { _ in listItem(&input) }
    if flags & 4 != 0 {
        entry.metadata = PluginMetadata(
            abiVersion: input.integer(), descriptorSize: input.integer(), description: input.optionalText(), author: input.optionalText(),
            license: input.optionalText(), homepage: input.optionalText(), apiBaseURL: input.optionalText())
    }
    let levels: [SandboxReport.Level] = [.full, .partial, .none]
    entry.sandbox = SandboxReport(
        level: levels[Int(flags >> 3) % 3],
        missing: (0..<Int(input.byte() % 3)).map { _ in SandboxReport.Gap(layer: input.countedText(), reason: input.countedText()) })
    return entry
}

/// Writes `bytes` where a store looks for its cache file (mode 0600, in a
/// private directory made once per process and removed at its exit), and
/// calls `body` with that store.
private func withCacheFile<T>(holding bytes: [UInt8], _ body: (Store) -> T) throws(PropertyViolation) -> T {
    try CacheScratch.directory.withLock { home throws(PropertyViolation) -> T in
        guard let home else { throw PropertyViolation(property: "a temporary directory can be made", detail: "mkdtemp failed") }
        let store = Store(cacheHome: home, searchPath: ["/fuzz"])
        let descriptor = open(store.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PropertyViolation(property: "the cache file can be written", detail: SystemError(operation: "create", errno: errno).reason) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try expect(written == bytes.count, "the cache file can be written", SystemError(operation: "write", errno: errno).reason)
        return body(store)
    }
}

/// The directory the cache file under test is written in: made on first
/// use, not per input (making and removing it cost more than the rest of a
/// run), and removed when the process exits.
private enum CacheScratch {
    /// `$XDG_CACHE_HOME` for the store; nil when none could be made. The
    /// lock keeps concurrent runs (the replay suite's) off each other's file.
    static let directory = Mutex<String?>(make())

    private static func make() -> String? {
        var template = TemporaryFiles.template("cache")
        guard let home = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) } }) else {
            return nil
        }
        mkdir(home + "/patchbay", 0o700)
        atexit {
            guard let home = CacheScratch.directory.withLock({ $0 }) else { return }
            unlink(Store(cacheHome: home, searchPath: ["/fuzz"]).path)
            rmdir(home + "/patchbay")
            rmdir(home)
        }
        return home
    }
}
#endif
