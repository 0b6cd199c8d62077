import Foundation
import Testing

/// Who vouches for a plugin, through `host` with its own defaults (the
/// registry cache on, plugins placed by trust): only the user (their trust
/// store, an `--allowlist` they name) or the build that bundled a plugin,
/// never a file that came with the plugin.
///
/// Where a plugin ran is told by its constructor, which appends "loaded" to
/// `$FIXTURE_MARKER`: only an unsandboxed plugin can, since a worker gets
/// neither the variable nor a writable file system.
@Suite("Who vouches for a plugin, end to end", .timeLimit(.minutes(10)))
struct VouchingEndToEndTests {
    /// A plugin whose constructor marks `$FIXTURE_MARKER`: TOOL.
    static let tools = FixturePlugins.Fixture(
        fileName: "libPriceTools.so", defines: ["-DFIXTURE_SLOW_CONSTRUCTOR=0", "-DFIXTURE_SYMBOL=\"TOOL\"", "-DFIXTURE_NAME=\"PriceToolsPlugin\""])

    /// The table `fetch TOOL` prints from ``api``.
    static let toolRow = "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nTOOL    USD       1.25    PriceToolsPlugin\n"
    /// The row of the plugin at `path` when nobody vouched for it: shown with its file.
    static func unvouchedToolRow(_ path: String) -> String {
        "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nTOOL    USD       1.25    PriceToolsPlugin (unvouched, \(path))\n"
    }

    /// One user: their configuration, cache and data directories, the
    /// marker a plugin in-process writes, and an API answering TOOL.
    struct User {
        let config = try! TemporaryDirectory.make()
        let cache = try! TemporaryDirectory.make()
        let data = try! TemporaryDirectory.make()
        let marker = try! TemporaryDirectory.make().appending(path: "marker").path
        var environment: [String: String] {
            ["XDG_CONFIG_HOME": config.path, "XDG_CACHE_HOME": cache.path, "XDG_DATA_HOME": data.path, "FIXTURE_MARKER": marker]
        }
        /// The trust store `host` reads for this user.
        var store: String { config.path + "/patchbay/trusted-plugins" }

        /// Whether a plugin ran in-process since the last look, which forgets it.
        func ranInProcess() throws -> Bool {
            guard FileManager.default.fileExists(atPath: marker) else { return false }
            try FileManager.default.removeItem(atPath: marker)
            return true
        }

        /// `host` with its defaults, as this user.
        func host(_ arguments: [String], in directory: URL? = nil, executable: URL? = nil) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments, environment: environment, in: directory, executable: executable)
        }
    }

    static func api() async throws -> String {
        try await RegistryCacheEndToEndTests.apiBase(for: ["TOOL": "1.25"])
    }

    /// `list-plugins --format json`'s row for `file`.
    static func row(_ output: CommandRunner.Output, _ file: String) throws -> [String: Any] {
        try #require(try HostFixtures.pluginRows(output.stdout)[file], "\(output.stdout)\n\(output.stderr)")
    }

    /// A folder as a cloned repository or an unpacked archive hands it over:
    /// `plugins/libPriceTools.so`, pinned by its own `plugins/plugins.lock`.
    static func handedOverFolder() async throws -> URL {
        let folder = try TemporaryDirectory.make()
        let plugins = folder.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(tools), to: plugins.appending(path: tools.fileName))
        try await HostFixtures.writeLock(for: [tools.fileName], in: plugins)
        return folder
    }

    @Test("A folder that ships a plugin with its own plugins.lock: every command runs it sandboxed, and list-plugins says nobody vouched")
    func pluginCannotVouchForItself() async throws {
        let folder = try await Self.handedOverFolder()
        let user = User()
        let api = try await Self.api()

        let fetch = try await user.host(["fetch", "TOOL", "--api-base-url", api], in: folder)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        let file = folder.appending(path: "plugins").appending(path: Self.tools.fileName).path
        #expect(fetch.stdout == Self.unvouchedToolRow(file))
        #expect(fetch.stderr.isEmpty, "\(fetch.stderr)")
        #expect(try !user.ranInProcess(), "fetch ran the plugin in-process")

        // Without the cache, every plugin loads: this one in a worker.
        let uncached = try await user.host(["fetch", "TOOL", "--no-cache", "--api-base-url", api], in: folder)
        #expect(uncached.status == 0, "\(uncached.stderr)")
        #expect(uncached.stdout == Self.unvouchedToolRow(file))
        #expect(try !user.ranInProcess(), "fetch --no-cache ran the plugin in-process")

        for arguments in [["list-fetchers"], ["list-fetchers"], ["list-fetchers", "--no-cache"], ["graph"]] {
            let listed = try await user.host(arguments, in: folder)
            #expect(listed.status == 0, "\(arguments): \(listed.stderr)")
            #expect(listed.stdout.contains("TOOL"), "\(arguments): \(listed.stdout)")
            #expect(listed.stderr.isEmpty, "\(arguments): \(listed.stderr)")
            #expect(try !user.ranInProcess(), "\(arguments) ran the plugin in-process")
        }

        for arguments in [["list-plugins", "--format", "json"], ["list-plugins", "--format", "json", "--no-cache"]] {
            let listed = try await user.host(arguments, in: folder)
            let tools = try Self.row(listed, Self.tools.fileName)
            #expect(tools["mode"] as? String == "isolated", "\(arguments)")
            #expect(tools["vouchedBy"] as? String == "nobody", "\(arguments)")
            #expect(tools["modeReason"] as? String == "nobody vouched for it", "\(arguments)")
            #expect(tools["status"] as? String == "loaded", "\(arguments)")
            let bundled = try Self.row(listed, "libEthereumPlugin.so")
            #expect(bundled["vouchedBy"] as? String == "bundled" && bundled["mode"] as? String == "in-process", "\(arguments)")
            #expect(try !user.ranInProcess(), "\(arguments) ran the plugin in-process")
        }
        let inspected = try await user.host(["inspect", "plugins/\(Self.tools.fileName)", "--format", "json"], in: folder)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stderr.isEmpty, "\(inspected.stderr)")
        let inspection = try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [String: Any]
        #expect(inspection?["vouchedBy"] as? String == "nobody" && inspection?["mode"] as? String == "isolated")
        #expect(try !user.ranInProcess(), "inspect ran the plugin in-process")
        let table = try await user.host(["list-plugins"], in: folder)
        #expect(table.stdout.contains("\nWhere plugins run:\n  in-process, bundled with the host: BitcoinPlugin, BitstampPlugin, EthereumPlugin\n  isolated, nobody vouched for it: PriceToolsPlugin\n"), "\(table.stdout)")

        // Its lock still pins: the plugin changed is refused, not run.
        let plugin = folder.appending(path: "plugins/\(Self.tools.fileName)").path
        let locked = try await HostFixtures.sha256sum(plugin)
        try HostFixtures.tamper(plugin)
        let tampered = try await HostFixtures.sha256sum(plugin)
        let refused = try await user.host(["fetch", "TOOL", "--api-base-url", api], in: folder)
        #expect(refused.status == 2)
        #expect(refused.stderrLines == [
            "host: warning: skipping \(plugin): refused (lock file): its SHA-256 is \(tampered), but \(folder.path)/plugins/plugins.lock expects \(locked); the file changed after it was pinned: if you changed it, check it and put the line `sha256sum` prints for it in \(folder.path)/plugins/plugins.lock",
            "host: error: TOOL: unknown symbol TOOL; available symbols: BTC, ETH; 1 plugin file failed to load and may provide it: run `host list-plugins` to see why",
        ])
    }

    @Test("host trust moves a plugin in-process, host untrust back into its worker, and a vouched file that changes is refused with both digests")
    func trustAndUntrust() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let plugin = directory.appending(path: Self.tools.fileName).path
        let user = User()
        let api = try await Self.api()
        let fetch = ["fetch", "TOOL", "--plugins-dir", directory.path, "--api-base-url", api]
        let digest = try await HostFixtures.sha256sum(plugin)

        #expect(try await user.host(fetch).stdout == Self.unvouchedToolRow(plugin))
        #expect(try !user.ranInProcess())

        let trusted = try await user.host(["trust", plugin])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stderr.isEmpty, "\(trusted.stderr)")
        #expect(trusted.stdout == "trusted \(plugin) (SHA-256 \(digest)): it now runs in-process (vouched for in your trust store \(user.store)), no longer in a sandboxed worker\n")
        #expect(try !user.ranInProcess(), "trust ran the plugin in-process to check it")

        let inProcess = try await user.host(fetch)
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        #expect(inProcess.stdout == Self.toolRow)
        #expect(try user.ranInProcess(), "a trusted plugin did not run in-process")
        let listed = try Self.row(try await user.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path]), Self.tools.fileName)
        #expect(listed["mode"] as? String == "in-process" && listed["vouchedBy"] as? String == "trust-store")
        #expect(listed["modeReason"] as? String == "vouched for in your trust store \(user.store)")

        let again = try await user.host(["trust", plugin])
        #expect(again.stdout == "\(plugin) is already trusted (SHA-256 \(digest)): it runs in-process (vouched for in your trust store \(user.store))\n")
        let list = try await user.host(["trust", "--list"])
        #expect(list.stdout == "Your trust store \(user.store) vouches for:\nSTATUS   SHA-256  FILE\nmatches  \(digest)  \(plugin)\n".replacingOccurrences(of: "SHA-256  FILE", with: "SHA-256" + String(repeating: " ", count: 59) + "FILE"))

        let untrusted = try await user.host(["untrust", plugin])
        #expect(untrusted.status == 0, "\(untrusted.stderr)")
        #expect(untrusted.stdout == "untrusted \(plugin): it now runs in a sandboxed worker (nobody vouched for it), no longer in-process\n")
        #expect(try await user.host(fetch).stdout == Self.unvouchedToolRow(plugin))
        #expect(try !user.ranInProcess(), "an untrusted plugin ran in-process")
        let notThere = try await user.host(["untrust", plugin])
        #expect(notThere.status == 1)
        #expect(notThere.stderrLines == [
            "host: error: \(plugin) is not in your trust store, so there is nothing to take back; it runs in a sandboxed worker (nobody vouched for it); `host trust --list` shows what is"
        ])

        // Vouched for, then changed: refused, naming both digests, until vouched for again.
        #expect(try await user.host(["trust", plugin]).status == 0)
        try HostFixtures.tamper(plugin)
        let changed = try await HostFixtures.sha256sum(plugin)
        let refused = try await user.host(fetch)
        #expect(refused.status == 2)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderrLines == [
            "host: warning: skipping \(plugin): refused (trust store): its SHA-256 is \(changed), but you vouched for \(digest) in \(user.store); the file changed after you trusted it: if you changed it, check it and vouch for it again with `host trust`, or take the vouch back with `host untrust` to run it sandboxed",
            "host: error: TOOL: unknown symbol TOOL; no fetchers are loaded; 1 plugin file failed to load and may provide it: run `host list-plugins` to see why",
        ])
        #expect(try !user.ranInProcess())
        let stale = try await user.host(["trust", "--list", "--format", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(stale.stdout.utf8)) as? [String: Any]
        #expect(json?["store"] as? String == user.store)
        #expect((json?["trusted"] as? [[String: String]]) == [["path": plugin, "sha256": digest, "status": "changed"]])

        let renewed = try await user.host(["trust", plugin])
        #expect(renewed.stdout == "trusted \(plugin) (SHA-256 \(changed), replacing \(digest)): it now runs in-process (vouched for in your trust store \(user.store)), no longer refused as changed\n")
        #expect(try await user.host(fetch).stdout == Self.toolRow)
        #expect(try user.ranInProcess())
    }

    @Test("host trust checks a file first, as inspect does, and records nothing for one that fails")
    func trustChecksFirst() async throws {
        let directory = try await FixturePlugins.directory(with: [.registrationFails], extraFiles: ["junk.so": Data("junk".utf8)])
        let user = User()
        let junk = directory.appending(path: "junk.so").path
        let failing = directory.appending(path: "registration-fails.so").path

        let output = try await user.host(["trust", junk, failing])

        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        // The failing plugin's own log line shows only with -v; its reason is in the refusal.
        #expect(output.stderrLines == [
            "host: error: not trusting \(junk): not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it",
            "host: error: not trusting \(failing): registration failed with status 4: cannot start: the fixture is built to fail registration",
        ])
        #expect(!FileManager.default.fileExists(atPath: user.store))
    }

    @Test("An installed host whose bin directory others can write vouches for no bundled plugin: they run in sandboxed workers, and say why")
    func bundledBesideAnOpenExecutableDirectory() async throws {
        // PREFIX/bin/host, open to others; PREFIX/lib/patchbay/plugins, the user's alone, passes every plugin file rule.
        let prefix = try TemporaryDirectory.make()
        let bin = prefix.appending(path: "bin")
        let lib = prefix.appending(path: "lib/patchbay")
        try FileManager.default.createDirectory(at: lib.appending(path: "plugins"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try await BuildCopies.copy(["host"], to: bin)
        try await BuildCopies.copy(["patchbay-worker"], to: lib)
        try await BuildCopies.copy(["libEthereumPlugin.so"], to: lib.appending(path: "plugins"))
        try HostFixtures.chmod(bin.path, 0o777)

        let output = try await User().host(["list-plugins", "--format", "json"], executable: bin.appending(path: "host"))

        #expect(output.status == 0, "\(output.stderr)")
        let row = try Self.row(output, "libEthereumPlugin.so")
        #expect(row["status"] as? String == "loaded")
        #expect(row["mode"] as? String == "isolated")
        #expect(row["vouchedBy"] as? String == "nobody")
        let reason = try #require(row["modeReason"] as? String)
        #expect(reason.hasPrefix("nobody vouched for it: bundled, but "), "\(reason)")
        #expect(reason.contains(bin.path), "\(reason)")
    }

    @Test("lock-plugins, from any folder, writes nothing beside the executable; a rebuilt bundled plugin still fetches")
    func lockPluginsNeverBesideTheExecutable() async throws {
        // A build of our own, to rebuild a bundled plugin in.
        let build = try TemporaryDirectory.make()
        try await BuildCopies.copy(["host", "patchbay-worker", "libBitcoinPlugin.so", "libEthereumPlugin.so"], to: build)
        let host = build.appending(path: "host")
        let user = User()
        // A plugin of the user's own, and a folder someone handed over.
        let mine = user.data.appending(path: "patchbay/plugins")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(Self.tools), to: mine.appending(path: Self.tools.fileName))
        let folder = try TemporaryDirectory.make()
        try FileManager.default.createDirectory(at: folder.appending(path: "plugins"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: await FixturePlugins.library(.cPlugin), to: folder.appending(path: "plugins/\(FixturePlugins.Variant.cPlugin.fileName)"))
        let buildBefore = try FileManager.default.contentsOfDirectory(atPath: build.path).sorted()
        let digest = try await HostFixtures.sha256sum(mine.appending(path: Self.tools.fileName).path)

        let locked = try await user.host(["lock-plugins"], in: folder, executable: host)

        #expect(locked.status == 0, "\(locked.stderr)")
        #expect(locked.stderr.isEmpty, "\(locked.stderr)")
        #expect(locked.stdout == """
            vouched for 1 plugin in your trust store \(user.store); they run in-process:
            \(digest)  \(mine.path)/\(Self.tools.fileName)
            left out \(build.path)/libBitcoinPlugin.so: it is bundled with the host, whose location vouches for it
            left out \(build.path)/libEthereumPlugin.so: it is bundled with the host, whose location vouches for it
            left out \(folder.path)/plugins/libCDogecoinPlugin.so: it is in ./plugins, which whoever gave you this folder could have filled; vouch for it by name with `host trust`

            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: build.path).sorted() == buildBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plugins"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "plugins").path) == [FixturePlugins.Variant.cPlugin.fileName])
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == [Self.tools.fileName])

        // Rebuilt: the bundled plugin's bytes change, and it still fetches, in-process.
        try HostFixtures.tamper(build.appending(path: "libEthereumPlugin.so").path)
        let fetched = try await user.host(["fetch", "ETH", "--api-base-url", HostFixtures.coinbase], in: folder, executable: host)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.contains(HostFixtures.ethRow))
        #expect(fetched.stderr.isEmpty, "\(fetched.stderr)")
        // And the user's own plugin runs in-process, vouched for.
        let tool = try await user.host(["fetch", "TOOL", "--api-base-url", try await Self.api()], in: folder, executable: host)
        #expect(tool.stdout == Self.toolRow, "\(tool.stderr)")
        #expect(try user.ranInProcess())
    }

    @Test("A lock file that only pins says so once, with the command that vouches")
    func lockFileOnlyPinsNotice() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        try await HostFixtures.writeLock(for: [Self.tools.fileName], in: directory)
        let user = User()

        let output = try await user.host(["list-fetchers", "--plugins-dir", directory.path])

        #expect(output.status == 0)
        #expect(output.stdout.contains("TOOL"))
        #expect(output.stderrLines == [
            "host: warning: \(directory.path)/plugins.lock now only pins the plugins it lists: it no longer runs them in-process, so they run in sandboxed workers; to run one in-process, vouch for it with `host trust`"
        ])
        let listed = try Self.row(try await user.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path]), Self.tools.fileName)
        #expect(listed["mode"] as? String == "isolated" && listed["vouchedBy"] as? String == "nobody")
    }

    @Test("--allowlist, named on the command line, vouches for what it lists")
    func allowlistVouches() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let allowlist = try TemporaryDirectory.make().appending(path: "allowed.lock").path
        let user = User()
        let written = try await user.host(["lock-plugins", "--plugins-dir", directory.path, "--allowlist", allowlist])
        #expect(written.status == 0, "\(written.stderr)")

        let output = try await user.host(["fetch", "TOOL", "--plugins-dir", directory.path, "--allowlist", allowlist, "--api-base-url", try await Self.api()])
        #expect(output.stdout == Self.toolRow, "\(output.stderr)")
        #expect(try user.ranInProcess())
        let listed = try Self.row(
            try await user.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path, "--allowlist", allowlist]), Self.tools.fileName)
        #expect(listed["vouchedBy"] as? String == "allowlist" && listed["modeReason"] as? String == "vouched for in the allowlist \(allowlist)")
    }

    @Test("A lock file in a directory its group or others can write refuses every plugin it covers, one line each", arguments: [
        (mode_t(0o775), "group-writable (mode 0775)", "g"),
        (mode_t(0o777), "group- and world-writable (mode 0777)", "go"),
    ])
    func lockFileInWritableDirectory(mode: mode_t, finding: String, who: String) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let lockDirectory = try TemporaryDirectory.make()
        let allowlist = lockDirectory.appending(path: "allowed.lock").path
        let user = User()
        #expect(try await user.host(["lock-plugins", "--plugins-dir", directory.path, "--allowlist", allowlist]).status == 0)
        try HostFixtures.chmod(lockDirectory.path, mode)

        let output = try await user.host(["list-fetchers", "--plugins-dir", directory.path, "--allowlist", allowlist])

        #expect(output.status == 0)
        #expect(output.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n")
        #expect(output.stderrLines == [
            "host: warning: skipping \(directory.path)/\(Self.tools.fileName): refused (not writable by others): the lock file \(allowlist) is in \(lockDirectory.path), which is \(finding), so other users could allow any plugin; run `chmod \(who)-w \(lockDirectory.path)`"
        ])
    }

    @Test("A symlink chain re-pointed through a world-writable directory is refused in one line")
    func symlinkChainThroughWritableDirectory() async throws {
        let directory = try await FixturePlugins.directory(containing: [])
        let elsewhere = try TemporaryDirectory.make()
        let real = elsewhere.appending(path: "real")
        let open = elsewhere.appending(path: "open")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(Self.tools), to: real.appending(path: Self.tools.fileName))
        try FileManager.default.createSymbolicLink(atPath: open.appending(path: "hop.so").path, withDestinationPath: real.appending(path: Self.tools.fileName).path)
        let link = directory.appending(path: Self.tools.fileName).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: open.appending(path: "hop.so").path)
        let user = User()
        #expect(try await user.host(["list-fetchers", "--plugins-dir", directory.path]).stdout.contains("TOOL"), "the chain is fine while the middle is private")
        try HostFixtures.chmod(open.path, 0o777)

        let output = try await user.host(["list-fetchers", "--plugins-dir", directory.path])

        #expect(output.status == 0)
        #expect(output.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n")
        #expect(output.stderrLines == [
            "host: warning: skipping \(link): refused (not writable by others): it is reached through the symlink \(open.path)/hop.so, whose directory \(open.path) is group- and world-writable (mode 0777), so other users could swap the plugin; run `chmod go-w \(open.path)`"
        ])
    }

    @Test("A plugins directory reached through a directory others can write is refused: every directory on the way is checked")
    func ancestorOthersCanWrite() async throws {
        let parent = try TemporaryDirectory.make()
        let directory = parent.appending(path: "plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(Self.tools), to: directory.appending(path: Self.tools.fileName))
        try HostFixtures.chmod(parent.path, 0o757)
        let user = User()

        let output = try await user.host(["list-fetchers", "--plugins-dir", directory.path])

        #expect(output.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n")
        #expect(output.stderrLines == [
            "host: warning: skipping \(directory.path)/\(Self.tools.fileName): refused (not writable by others): its path passes through \(parent.path), which is world-writable (mode 0757), so other users could swap the plugin; run `chmod o-w \(parent.path)`"
        ])
    }

    @Test("A sparse plugin file over the size limit is refused in one line, before it is hashed")
    func sparseFileOverTheCap() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let plugin = directory.appending(path: Self.tools.fileName).path
        let digest = try await HostFixtures.sha256sum(plugin)
        let user = User()
        // Vouched for, so a run would need its digest, as a lock file would.
        try await HostFixtures.writeTrustStore([plugin: digest], at: user.store)
        let handle = try FileHandle(forWritingTo: URL(filePath: plugin))
        try handle.truncate(atOffset: 10 << 30)
        try handle.close()

        let output = try await user.host(["list-fetchers", "--plugins-dir", directory.path])

        #expect(output.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n")
        #expect(output.stderrLines == [
            "host: warning: skipping \(plugin): refused (size): it is 10 GiB, larger than a plugin may be (256 MiB); remove \(plugin) from the plugins directory"
        ])
        let trusted = try await user.host(["trust", plugin])
        #expect(trusted.stderrLines == [
            "host: error: not trusting \(plugin): refused (size): it is 10 GiB, larger than a plugin may be (256 MiB); remove \(plugin) from the plugins directory"
        ])
    }

    @Test("A trust store others can write vouches for nothing, and says so in one line")
    func trustStoreOthersCanWrite() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let plugin = directory.appending(path: Self.tools.fileName).path
        let user = User()
        #expect(try await user.host(["trust", plugin]).status == 0)
        let storeDirectory = user.config.path + "/patchbay"
        try HostFixtures.chmod(storeDirectory, 0o770)

        let output = try await user.host(["fetch", "TOOL", "--plugins-dir", directory.path, "--api-base-url", try await Self.api()])

        #expect(output.stdout == Self.unvouchedToolRow(plugin))
        #expect(output.stderrLines == [
            "host: warning: your trust store vouches for nothing until it is fixed: refused (not writable by others): the trust store \(user.store) is in \(storeDirectory), which is group-writable (mode 0770), so other users could vouch for any plugin; run `chmod g-w \(storeDirectory)`"
        ])
        #expect(try !user.ranInProcess(), "a trust store others can write moved a plugin in-process")
        let untrust = try await user.host(["untrust", plugin])
        #expect(untrust.status == 1)
        #expect(untrust.stderrLines.last
            == "host: error: cannot change your trust store: refused (not writable by others): the trust store \(user.store) is in \(storeDirectory), which is group-writable (mode 0770), so other users could vouch for any plugin; run `chmod g-w \(storeDirectory)`")
    }

    @Test("A file name holding a line break is refused by trust in one line, and nothing is written to the store", arguments: ["a\nb.so", "ab.so\r"])
    func lineBreakInName(fileName: String) async throws {
        var fixture = Self.tools
        fixture.fileName = fileName
        let directory = try await FixturePlugins.directory(containing: [fixture])
        let plugin = directory.appending(path: fileName).path
        let user = User()

        let output = try await user.host(["trust", plugin])

        #expect(output.status == 1)
        let shown = plugin.replacing("\n", with: #"\n"#).replacing("\r", with: #"\r"#)
        #expect(output.stderrLines == [
            "host: error: not trusting \(shown): its name holds a line break, which a line of the trust store cannot hold; rename the file without it, then trust it"
        ])
        #expect(output.stdout.isEmpty, "\(output.stdout)")
        let store = (try? String(contentsOfFile: user.store, encoding: .utf8)) ?? ""
        #expect(!store.contains(directory.path), "\(store)")
    }

    @Test("A sticky, shared XDG_CONFIG_HOME (mode 1777) holding the user's own patchbay: trust writes the store that reading believes")
    func stickyConfigHome() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let plugin = directory.appending(path: Self.tools.fileName).path
        let user = User()
        try HostFixtures.chmod(user.config.path, 0o1777)

        let trusted = try await user.host(["trust", plugin])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.hasPrefix("trusted \(plugin) (SHA-256 "), "\(trusted.stdout)\(trusted.stderr)")

        let output = try await user.host(["fetch", "TOOL", "--plugins-dir", directory.path, "--api-base-url", try await Self.api()])
        #expect(output.stdout == Self.toolRow)
        #expect(output.stderrLines.isEmpty, "\(output.stderr)")
        #expect(try user.ranInProcess(), "the store written in a sticky XDG_CONFIG_HOME was not believed")
    }
}
