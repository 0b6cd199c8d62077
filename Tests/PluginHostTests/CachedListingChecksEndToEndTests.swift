import Foundation
import Testing

/// A listing from the registry cache is no vouch: the checks that depend on
/// more than the plugin file (a lock file or a vouch that appeared since the
/// scan, a directory others may now write) are made again on every run, so
/// a file the cache describes is refused just as an uncached one would be.
@Suite("What changed since a scan is checked again, with the registry cache on", .timeLimit(.minutes(10)))
struct CachedListingChecksEndToEndTests {
    /// One user's cache and configuration, kept across runs.
    struct User {
        let environment = [
            "XDG_CACHE_HOME": try! TemporaryDirectory.make().path, "XDG_CONFIG_HOME": try! TemporaryDirectory.make().path,
        ]

        func host(_ arguments: [String]) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments, environment: environment)
        }

        /// `list-plugins --format json`'s row of each file, by file name.
        func rows(_ directory: URL) async throws -> [String: [String: Any]] {
            let output = try await host(["list-plugins", "--format", "json", "--plugins-dir", directory.path])
            #expect(output.status == 0, "\(output.stderr)")
            return try HostFixtures.pluginRows(output.stdout)
        }
    }

    static let doge = FixturePlugins.Variant.cPlugin.fileName

    @Test("A lock file that appears after the scan pins the cached plugin: another digest or no line refuses it, its own digest lets it load")
    func lockFileAfterTheScan() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let plugin = directory.appending(path: Self.doge).path
        let lock = directory.appending(path: "plugins.lock").path
        let user = User()
        let scanned = try await user.rows(directory)
        #expect(scanned[Self.doge]?["status"] as? String == "loaded")
        #expect(try await user.rows(directory)[Self.doge]?["cached"] as? Bool == true)
        let digest = try await HostFixtures.sha256sum(plugin)
        let other = try await HostFixtures.sha256sum(directory.appending(path: "libEthereumPlugin.so").path)

        // Another file's digest under its name: refused, in the listing and the fetch.
        try Data("\(other)  \(Self.doge)\n\(other)  libEthereumPlugin.so\n".utf8).write(to: URL(filePath: lock))
        let mismatch =
            "refused (lock file): its SHA-256 is \(digest), but \(lock) expects \(other); the file changed after it was pinned: if you changed it, check it and put the line `sha256sum` prints for it in \(lock)"
        let pinned = try await user.rows(directory)
        #expect(pinned[Self.doge]?["status"] as? String == "failed")
        #expect(pinned[Self.doge]?["error"] as? String == mismatch)
        #expect(pinned["libEthereumPlugin.so"]?["status"] as? String == "loaded")
        let refused = try await user.host(["fetch", "DOGE", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase])
        #expect(refused.status == 2)
        #expect(refused.stderrLines.first == "host: warning: skipping \(plugin): \(mismatch)")

        // Not listed at all: refused too.
        try Data("\(other)  libEthereumPlugin.so\n".utf8).write(to: URL(filePath: lock))
        let unlisted = try await user.rows(directory)
        #expect(unlisted[Self.doge]?["error"] as? String
            == "refused (lock file): it is not listed in \(lock), which pins every plugin beside it; check the file, then add the line `sha256sum` prints for it to \(lock)")

        // Its own digest: it loads, scanned once more to take the digest, then from the cache.
        try Data("\(digest)  \(Self.doge)\n\(other)  libEthereumPlugin.so\n".utf8).write(to: URL(filePath: lock))
        let matching = try await user.rows(directory)
        #expect(matching[Self.doge]?["status"] as? String == "loaded")
        #expect(try await user.rows(directory)[Self.doge]?["cached"] as? Bool == true)
        let api = try await RegistryCacheEndToEndTests.apiBase(for: ["DOGE": "0.12"])
        let fetched = try await user.host(["fetch", "DOGE", "--plugins-dir", directory.path, "--api-base-url", api])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.contains("DOGE    USD       0.12"), "\(fetched.stdout)")
    }

    @Test("A plugins directory others may write since the scan refuses the cached plugins in it")
    func directoryOpenedAfterTheScan() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let user = User()
        #expect(try await user.rows(directory)[Self.doge]?["status"] as? String == "loaded")

        try HostFixtures.chmod(directory.path, 0o777)
        let rows = try await user.rows(directory)
        #expect(rows[Self.doge]?["status"] as? String == "failed")
        #expect(rows[Self.doge]?["error"] as? String
            == "refused (not writable by others): its directory \(directory.path) is group- and world-writable (mode 0777), so other users could swap the plugin; run `chmod go-w \(directory.path)`")
        let fetched = try await user.host(["fetch", "DOGE", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase])
        #expect(fetched.status == 2)
    }
}
