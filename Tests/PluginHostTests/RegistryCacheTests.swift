import Foundation
import PluginBoundary
@testable import PluginHost
import Testing
import WorkerProtocol

/// The registry cache file: written atomically and privately, and refused
/// whenever it cannot be trusted to say what it says.
@Suite("Registry cache file", .timeLimit(.minutes(10)))
struct RegistryCacheTests {
    static let cache = ScanCache(
        host: "host-1", abiVersion: 1, searchPath: ["/plugins"],
        entries: [
            .init(
                path: "/plugins/libEthereumPlugin.so",
                identity: FileIdentity(device: 1, inode: 2, size: 3, modifiedNanoseconds: 4, changedNanoseconds: 5),
                name: "EthereumPlugin", version: "1.0.0", abiVersion: 1, fetchers: [.init(symbol: "ETH", displayName: "Ethereum", rank: 256)],
                status: .loaded),
            .init(
                path: "/plugins/broken.so",
                identity: FileIdentity(device: 1, inode: 9, size: 3, modifiedNanoseconds: 4, changedNanoseconds: 5),
                name: "broken.so", fetchers: [], status: .failed, error: "not a loadable plugin library"),
            // Every character the file format escapes, in every kind of field.
            .init(
                path: "/plugins/odd\tname\n.so",
                identity: FileIdentity(device: 7, inode: 8, size: 9, modifiedNanoseconds: -1, changedNanoseconds: Int64.max),
                sha256: String(repeating: "ab", count: 32), name: "Odd\\Plugin\u{1F}", version: "=1\r", abiVersion: 1,
                fetchers: [.init(symbol: "ODD", displayName: "Odd\u{1E}coin\t", rank: 0), .init(symbol: "EVEN", displayName: "", rank: 4_294_967_295)],
                status: .loaded, warnings: ["one\nline", ""],
                metadata: PluginMetadata(
                    abiVersion: 1, descriptorSize: 80, description: "=\u{1F}=", author: nil, license: "", homepage: "h", apiBaseURL: "https://a.test\t"),
                sandbox: SandboxReport(level: .partial, missing: [.init(layer: "seccomp\tfilter", reason: "off\u{1E}")])),
        ])

    static func store() throws -> ScanCacheStore {
        ScanCacheStore(cacheHome: try TemporaryDirectory.make().appending(path: "cache").path, searchPath: ["/plugins"])
    }

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("A file replaced after the listing described it is refused at load, never loaded on the listing's word")
    func changedBeforeLoad() async throws {
        let listed = try await FixturePlugins.privateCopy(of: .cPlugin)
        let listedIdentity = try FileIdentity.of(path: listed.path)
        let rules = TrustRules(currentUser: UInt32(geteuid()))
        // The same file as listed loads.
        let same = try PluginFile.open(listed.path, rules: rules, lock: .unlocked, expecting: listedIdentity)
        same.closeUnloaded()
        // Replaced by another file at the same path: refused.
        let replacement = try await FixturePlugins.privateCopy(of: .cPlugin)
        #expect(rename(replacement.path, listed.path) == 0)
        #expect(throws: PluginLoadError(.changedSinceListed)) {
            try PluginFile.open(listed.path, rules: rules, lock: .unlocked, expecting: listedIdentity)
        }
    }

    @Test("What is written reads back the same, from a 0600 file in a 0700 directory")
    func roundTrip() throws {
        let store = try Self.store()
        try store.write(Self.cache)
        #expect(try store.read(host: "host-1", abiVersion: 1).get() == Self.cache)
        #expect(try Self.mode(store.path) == 0o600)
        #expect(try Self.mode(FilePaths.directory(of: store.path)) == 0o700)
        #expect(FilePaths.name(of: store.path).hasPrefix("registry-"))
    }

    @Test("Each search path has a file of its own")
    func oneFilePerSearchPath() {
        let first = ScanCacheStore(cacheHome: "/c", searchPath: ["/a", "/b"])
        let second = ScanCacheStore(cacheHome: "/c", searchPath: ["/b", "/a"])
        #expect(first.path != second.path)
        #expect(first.path.hasPrefix("/c/patchbay/registry-"))
    }

    @Test("No cache yet is not a warning")
    func missing() throws {
        #expect(try Self.store().read(host: "host-1", abiVersion: 1).failure == .missing)
    }

    @Test("A cache from another host, ABI or format is refused")
    func otherWriters() throws {
        let store = try Self.store()
        try store.write(Self.cache)
        #expect(store.read(host: "host-2", abiVersion: 1).failure == .otherHost)
        #expect(store.read(host: "host-1", abiVersion: 2).failure == .otherABI(1))
        var future = Self.cache
        future.format = 99
        try store.write(future)
        #expect(store.read(host: "host-1", abiVersion: 1).failure == .otherFormat(99))
    }

    @Test("A truncated or corrupt cache is refused", arguments: ["half", "garbage", "empty"])
    func damaged(kind: String) throws {
        let store = try Self.store()
        try store.write(Self.cache)
        let whole = try Data(contentsOf: URL(filePath: store.path))
        let damaged: Data =
            switch kind {
            case "half": whole.prefix(whole.count / 2)
            case "garbage": Data("\u{0}\u{1}not json".utf8)
            default: Data()
            }
        try damaged.write(to: URL(filePath: store.path))
        try HostFixtures.chmod(store.path, 0o600)
        guard case .corrupt = store.read(host: "host-1", abiVersion: 1).failure else {
            Issue.record("a \(kind) cache was not refused as corrupt")
            return
        }
    }

    @Test("A 50 MB line is refused after at most 4 MiB of it is read; a line of exactly 4 MiB is read and judged by the decoder")
    func longLineIsBounded() throws {
        let store = try Self.store()
        try store.write(Self.cache)
        let whole = try Data(contentsOf: URL(filePath: store.path))
        let firstLine = try #require(whole.firstIndex(of: UInt8(ascii: "\n")))
        func planted(_ length: Int) throws -> ScanCacheStore.ReadError? {
            var damaged = Data(whole[...firstLine])
            damaged.append(Data(repeating: UInt8(ascii: "x"), count: length))
            damaged.append(whole[firstLine...])
            try damaged.write(to: URL(filePath: store.path))
            try HostFixtures.chmod(store.path, 0o600)
            return store.read(host: "host-1", abiVersion: 1).failure
        }
        let bounded = ScanCacheStore.ReadError.corrupt("a line is longer than 4 MiB, longer than any entry the host writes")
        #expect(try planted(50_000_000) == bounded)
        #expect(try planted(ScanCacheStore.maximumLineLength + 1) == bounded)
        let atTheLimit = try planted(ScanCacheStore.maximumLineLength)
        #expect(atTheLimit != bounded && atTheLimit != nil, "\(String(describing: atTheLimit))")
        // A line never ended: refused once 4 MiB of it are read, not when the file ends.
        var open = whole
        open.append(Data(repeating: UInt8(ascii: "x"), count: 50_000_000))
        try open.write(to: URL(filePath: store.path))
        try HostFixtures.chmod(store.path, 0o600)
        #expect(store.read(host: "host-1", abiVersion: 1).failure == bounded)
    }

    @Test("A cache others may write is refused", arguments: [0o620, 0o602, 0o666])
    func writableByOthers(mode: Int) throws {
        let store = try Self.store()
        try store.write(Self.cache)
        try HostFixtures.chmod(store.path, mode_t(mode))
        #expect(store.read(host: "host-1", abiVersion: 1).failure == .writableByOthers(mode: String(mode, radix: 8)))
    }

    @Test("A cache that belongs to someone else is refused", .enabled(if: geteuid() == 0, "needs root to hand the file to another user"))
    func foreignOwner() throws {
        let store = try Self.store()
        try store.write(Self.cache)
        #expect(chown(store.path, 4242, 4242) == 0)
        #expect(store.read(host: "host-1", abiVersion: 1).failure == .notOwned(owner: 4242))
    }

    @Test("A directory in the cache file's place is refused as no regular file")
    func directoryInItsPlace() throws {
        let store = try Self.store()
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: true)
        #expect(store.read(host: "host-1", abiVersion: 1).failure == .notARegularFile)
    }

    @Test("A named pipe in the cache file's place is refused at once, not waited on for a writer")
    func namedPipeInItsPlace() throws {
        let store = try Self.store()
        try FileManager.default.createDirectory(atPath: FilePaths.directory(of: store.path), withIntermediateDirectories: true)
        #expect(mkfifo(store.path, 0o600) == 0)
        #expect(store.read(host: "host-1", abiVersion: 1).failure == .notARegularFile)
    }

    @Test("A cache directory that belongs to someone else is not written into", .enabled(if: geteuid() == 0, "needs root to hand the directory to another user"))
    func foreignDirectoryRefused() throws {
        let store = try Self.store()
        let directory = FilePaths.directory(of: store.path)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try HostFixtures.chmod(directory, 0o700)
        #expect(chown(directory, 4242, 4242) == 0)
        #expect(throws: ScanCacheStore.WriteError(path: directory, .notOwned(owner: 4242))) {
            try store.write(Self.cache)
        }
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test("A symlink in the cache file's place is not followed")
    func symlinkRefused() throws {
        let store = try Self.store()
        try store.write(Self.cache)
        let elsewhere = try TemporaryDirectory.make().appending(path: "elsewhere.json")
        try FileManager.default.moveItem(atPath: store.path, toPath: elsewhere.path)
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: elsewhere.path)
        guard case .unreadable = store.read(host: "host-1", abiVersion: 1).failure else {
            Issue.record("a symlinked cache was read")
            return
        }
    }

    @Test("A cache directory open to others is not written into")
    func openDirectoryRefused() throws {
        let store = try Self.store()
        let directory = FilePaths.directory(of: store.path)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try HostFixtures.chmod(directory, 0o755)
        let error = #expect(throws: ScanCacheStore.WriteError.self) {
            try store.write(Self.cache)
        }
        #expect(error == ScanCacheStore.WriteError(path: directory, .openToOthers(mode: "755")))
        #expect(error?.description == "cannot write the plugin cache \(directory): its mode is 755, not 700; run `chmod 700 \(directory)`")
    }

    @Test("Ten writers racing leave one complete cache and no temporary files")
    func racingWriters() async throws {
        let store = try Self.store()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<10 {
                group.addTask {
                    var cache = Self.cache
                    cache.entries[0].name = "Writer\(writer)"
                    for _ in 0..<20 { try? store.write(cache) }
                }
            }
        }
        let read = try store.read(host: "host-1", abiVersion: 1).get()
        #expect(read.entries[0].name.hasPrefix("Writer"))
        let names = try FileManager.default.contentsOfDirectory(atPath: FilePaths.directory(of: store.path))
        #expect(names == [FilePaths.name(of: store.path)])
    }

    @Test("A file dated past 2262 has an identity, which the cache keeps")
    func farFutureFile() throws {
        // Found by the registry-cache-writer fuzz target: the nanoseconds
        // overflowed, and `list-plugins` crashed on a plugin whose owner had
        // run `touch -d 2300-01-01` on it.
        let file = try TemporaryDirectory.make().appending(path: "plugin.so")
        try Data("one".utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 10_413_792_000)], ofItemAtPath: file.path)
        let identity = try FileIdentity.of(path: file.path)
        var cache = Self.cache
        cache.entries[0].identity = identity
        #expect(try ScanCacheCodec.decode(ScanCacheCodec.encode(cache)) == cache)
    }

    @Test("Identities at the ends of Int64 read back", arguments: [Int64.min, Int64.min + 1, -1, 0, Int64.max])
    func extremeIdentities(value: Int64) throws {
        var cache = Self.cache
        cache.entries[0].identity = FileIdentity(device: .max, inode: 0, size: value, modifiedNanoseconds: value, changedNanoseconds: value)
        #expect(try ScanCacheCodec.decode(ScanCacheCodec.encode(cache)) == cache)
    }

    @Test("Texts that start with a combining mark read back", arguments: ["\u{301}1.0", "\u{301}", "\u{20DD}\\t"])
    func combiningMarks(text: String) throws {
        // Found by review and confirmed by the registry-cache-writer fuzz
        // target: "=" and a combining mark are one Character, so a plugin
        // whose version began with one made the cache unreadable, and every
        // run rescanned every plugin.
        var cache = Self.cache
        cache.entries[0].version = text
        cache.entries[0].error = text
        cache.entries[0].sha256 = text
        #expect(try ScanCacheCodec.decode(ScanCacheCodec.encode(cache)) == cache)
    }

    @Test("A rewrite copies the line of each entry it keeps as read, and encodes only new ones")
    func rewriteKeepsReadLines() throws {
        let bytes = ScanCacheCodec.encode(Self.cache)
        // A line the codec reads but would not write so: an inode with leading zeros.
        let canonical = "\t1\t2\t3\t4\t5\t"
        let text = String(decoding: bytes, as: UTF8.self)
        let padded = Array(text.replacingOccurrences(of: canonical, with: "\t1\t002\t3\t4\t5\t").utf8)
        #expect(padded != bytes)
        var read = try ScanCacheCodec.decode(padded)
        #expect(read == Self.cache)
        #expect(read.readLines.count == read.entries.count)

        // Kept as read, byte for byte; encoded afresh when not asked to keep it.
        #expect(ScanCacheCodec.encode(read, reusingReadLines: true) == padded)
        #expect(ScanCacheCodec.encode(read) == bytes)

        // An entry made since (no line of its own) is encoded; the others are still copied.
        read.entries[1].error = "changed"
        read.readLines[1] = nil
        var expected = Self.cache
        expected.entries[1].error = "changed"
        let rewritten = ScanCacheCodec.encode(read, reusingReadLines: true)
        #expect(try ScanCacheCodec.decode(rewritten) == expected)
        #expect(String(decoding: rewritten, as: UTF8.self).contains("\t1\t002\t3\t4\t5\t"))

        // Lines that do not match the entries one for one are never used.
        read.readLines.removeLast()
        #expect(ScanCacheCodec.encode(read, reusingReadLines: true) == ScanCacheCodec.encode(expected))
    }

    @Test("A file's identity changes when it is replaced or rewritten, even with its mtime put back")
    func identity() throws {
        let file = try TemporaryDirectory.make().appending(path: "plugin.so")
        try Data("one".utf8).write(to: file)
        let first = try FileIdentity.of(path: file.path)
        #expect(try FileIdentity.of(path: file.path) == first)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        try Data("two".utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: modified as Any], ofItemAtPath: file.path)
        let second = try FileIdentity.of(path: file.path)
        #expect(second != first)
        #expect(second.changedNanoseconds != first.changedNanoseconds || second.inode != first.inode)
    }
}
