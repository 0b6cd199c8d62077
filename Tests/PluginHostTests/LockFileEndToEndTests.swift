import Foundation
import Testing

/// `host lock-plugins`, the lock files beside plugins (which pin) and
/// `--allowlist`, through the `host` executable.
@Suite("Lock files, end to end", .timeLimit(.minutes(10)))
struct LockFileEndToEndTests {
    @Test("lock-plugins records every plugin found in the user's trust store, sha256sum-compatible, and writes nothing beside the plugins")
    func lockWritesTrustStore() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let doge = try await HostFixtures.sha256sum(directory.appending(path: "libCDogecoinPlugin.so").path)
        let eth = try await HostFixtures.sha256sum(directory.appending(path: "libEthereumPlugin.so").path)
        let config = try TemporaryDirectory.make()
        let store = config.appending(path: "patchbay/trusted-plugins").path

        let output = try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path], environment: ["XDG_CONFIG_HOME": config.path])

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        #expect(output.stdout == """
            vouched for 2 plugins in your trust store \(store); they run in-process:
            \(doge)  \(directory.path)/libCDogecoinPlugin.so
            \(eth)  \(directory.path)/libEthereumPlugin.so

            """)
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "plugins.lock").path))
        // `sha256sum -c` agrees, from anywhere: the names are absolute.
        try await HostFixtures.run("/usr/bin/sha256sum", ["-c", "--quiet", store])
        var status = stat()
        #expect(stat(store, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(config.appending(path: "patchbay").path, &status) == 0 && status.st_mode & 0o777 == 0o700)

        let listed = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(listed.stderr.isEmpty, "\(listed.stderr)")
        #expect(listed.stdout.contains("DOGE") && listed.stdout.contains("ETH"))
    }

    /// The line every run by trust prints about a lock file beside plugins nobody vouched for.
    static func onlyPins(_ directory: URL) -> String {
        "host: warning: \(directory.path)/plugins.lock now only pins the plugins it lists: it no longer runs them in-process, so they run in sandboxed workers; to run one in-process, vouch for it with `host trust`"
    }

    @Test("A plugin changed after locking is refused with both hashes; ETH still fetches", arguments: CommandRunner.fixturePlacements)
    func tamperedAfterLocking(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let plugin = directory.appending(path: "libCDogecoinPlugin.so").path
        let locked = try await HostFixtures.sha256sum(plugin)
        try await HostFixtures.writeLock(for: ["libCDogecoinPlugin.so", "libEthereumPlugin.so"], in: directory)
        try HostFixtures.tamper(plugin)
        let tampered = try await HostFixtures.sha256sum(plugin)

        let output = try await CommandRunner.host(
            ["fetch", "ETH", "DOGE", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)

        #expect(output.status == 2)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == [
            "host: warning: skipping \(plugin): refused (lock file): its SHA-256 is \(tampered), but \(directory.path)/plugins.lock expects \(locked); the file changed after it was pinned: if you changed it, check it and put the line `sha256sum` prints for it in \(directory.path)/plugins.lock"
        ] + (flags.isEmpty ? [Self.onlyPins(directory)] : []) + [
            "host: error: DOGE: unknown symbol DOGE; available symbols: ETH; 1 plugin file failed to load and may provide it: run `host list-plugins` to see why",
        ])
    }

    @Test("A plugin added after locking is refused until it is locked")
    func notInLock() async throws {
        let directory = try await FixturePlugins.directory(with: [], bundled: ["Ethereum"])
        try await HostFixtures.writeLock(for: ["libEthereumPlugin.so"], in: directory)
        let plugin = directory.appending(path: "libCDogecoinPlugin.so")
        try FileManager.default.copyItem(at: await FixturePlugins.library(.cPlugin), to: plugin)

        let output = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path])

        #expect(output.status == 0)
        let refusal = "refused (lock file): it is not listed in \(directory.path)/plugins.lock, which pins every plugin beside it; check the file, then add the line `sha256sum` prints for it to \(directory.path)/plugins.lock"
        #expect(output.stderrLines == ["host: warning: skipping \(plugin.path): \(refusal)", Self.onlyPins(directory)])
        let rows = try HostFixtures.pluginRows(output.stdout)
        #expect(rows["libCDogecoinPlugin.so"]?["status"] as? String == "failed")
        #expect(rows["libCDogecoinPlugin.so"]?["error"] as? String == refusal)
        #expect(rows["libEthereumPlugin.so"]?["status"] as? String == "loaded")

        try await HostFixtures.writeLock(for: ["libCDogecoinPlugin.so", "libEthereumPlugin.so"], in: directory)
        let relisted = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path])
        #expect(relisted.stderrLines == [Self.onlyPins(directory)])
        #expect(relisted.stdout.contains("DOGE"))
    }

    @Test("--allowlist names one lock file for every directory, with absolute names")
    func explicitAllowlist() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let allowlist = try TemporaryDirectory.make().appending(path: "allowed.lock").path
        let written = try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path, "--allowlist", allowlist])
        #expect(written.status == 0)
        #expect(written.stdout.hasPrefix("wrote \(allowlist) (2 plugins):\n"))
        #expect(written.stdout.contains("  \(directory.path)/libCDogecoinPlugin.so\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "plugins.lock").path))
        try await HostFixtures.run("/usr/bin/sha256sum", ["-c", "--quiet", allowlist])

        let plugin = directory.appending(path: "libCDogecoinPlugin.so").path
        try HostFixtures.tamper(plugin)
        let output = try await CommandRunner.host(
            ["fetch", "ETH", "--plugins-dir", directory.path, "--allowlist", allowlist, "--api-base-url", HostFixtures.coinbase])
        #expect(output.status == 0)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines.count == 1)
        #expect(output.stderrLines.first?.hasPrefix("host: warning: skipping \(plugin): refused (lock file): its SHA-256 is ") == true)
        #expect(output.stderrLines.first?.contains(", but \(allowlist) expects ") == true)
    }

    @Test("An --allowlist that does not exist is one usage line, exit 64")
    func missingAllowlist() async throws {
        let output = try await CommandRunner.host(["list-fetchers", "--allowlist", "/nonexistent/plugins.lock"])
        #expect(output.status == 64)
        #expect(output.stderrLines.first
            == "host: error: --allowlist /nonexistent/plugins.lock cannot be read (No such file or directory); create it with `host lock-plugins --allowlist /nonexistent/plugins.lock`, or fix the path")
        #expect(!output.stderr.contains("Backtrace"))
    }

    @Test("A lock file that is malformed or writable by others refuses everything it covers", arguments: [false, true])
    func unusableLockFile(writable: Bool) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let lock = directory.appending(path: "plugins.lock").path
        try await HostFixtures.writeLock(for: ["libCDogecoinPlugin.so", "libEthereumPlugin.so"], in: directory)
        if writable {
            try HostFixtures.chmod(lock, 0o646)
        } else {
            try Data("not a digest  libEthereumPlugin.so\n".utf8).write(to: URL(filePath: lock))
        }

        let output = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path])

        #expect(output.status == 0)
        #expect(output.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n")
        let reason =
            writable
            ? "refused (not writable by others): the lock file \(lock) is world-writable (mode 0646), so other users could allow any plugin; run `chmod o-w \(lock)`"
            : "refused (lock file): line 1 of \(lock) is not `<sha256 hex>  <file name>`; fix the line, or write it again with `sha256sum`"
        #expect(output.stderrLines == [
            "host: warning: skipping \(directory.path)/libCDogecoinPlugin.so: \(reason)",
            "host: warning: skipping \(directory.path)/libEthereumPlugin.so: \(reason)",
        ])
    }

    @Test("lock-plugins leaves out a file that fails a check, says why, and exits 1")
    func lockSkipsUntrusted() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"], extraFiles: ["junk.so": Data("junk".utf8)])
        let plugin = directory.appending(path: "libCDogecoinPlugin.so").path
        try HostFixtures.chmod(plugin, 0o757)

        let config = try TemporaryDirectory.make()

        let output = try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path], environment: ["XDG_CONFIG_HOME": config.path])

        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("vouched for 1 plugin in your trust store \(config.path)/patchbay/trusted-plugins; they run in-process:\n"))
        #expect(output.stderrLines == [
            "host: warning: not locking \(directory.path)/junk.so: not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it",
            "host: warning: not locking \(plugin): refused (not writable by others): it is world-writable (mode 0757), so other users could replace its code; run `chmod o-w \(plugin)`",
        ])
    }
}
