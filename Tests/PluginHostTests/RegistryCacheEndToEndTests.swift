import Foundation
import Testing

/// The registry cache, lazy loading and sandboxed-by-default plugins, through
/// the `host` executable with its own defaults, each test with a cache
/// directory of its own.
@Suite("Registry cache and lazy loading, end to end")
struct RegistryCacheEndToEndTests {
    /// A plugin whose constructor marks `$FIXTURE_MARKER` and then sleeps 4 s.
    static let slow = FixturePlugins.Fixture(
        fileName: "libSlowPlugin.so", defines: ["-DFIXTURE_SLOW_CONSTRUCTOR=4", "-DFIXTURE_SYMBOL=\"SLOW\"", "-DFIXTURE_NAME=\"SlowPlugin\""])
    /// A second working plugin: WOW.
    static let wow = FixturePlugins.Fixture(fileName: "libWowPlugin.so", defines: ["-DFIXTURE_SYMBOL=\"WOW\"", "-DFIXTURE_NAME=\"WowPlugin\""])

    /// One row of `list-plugins --format json`.
    struct PluginRow: Decodable, Equatable {
        let name: String
        let status: String
        let mode: String?
        let modeReason: String?
        let vouchedBy: String?
        let cached: Bool
        let sandbox: String
        let fetchers: [String]
        let error: String?
    }

    /// A fresh cache directory and the environment that points `host` at it.
    struct Cache {
        let home = try! TemporaryDirectory.make()
        var environment: [String: String] { ["XDG_CACHE_HOME": home.path] }
        /// The cache files written so far.
        var files: [URL] {
            (try? FileManager.default.contentsOfDirectory(at: home.appending(path: "patchbay"), includingPropertiesForKeys: nil)) ?? []
        }
    }

    /// A `file://` API base answering the Coinbase spot-price shape for `prices` in USD.
    static func apiBase(for prices: [String: String]) async throws -> String {
        let base = try TemporaryDirectory.make()
        for (symbol, amount) in prices {
            let directory = base.appending(path: "v2/prices/\(symbol)-USD")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("{\"data\":{\"base\":\"\(symbol)\",\"currency\":\"USD\",\"amount\":\"\(amount)\"}}".utf8).write(to: directory.appending(path: "spot"))
        }
        return "file://" + base.path
    }

    func host(_ arguments: [String], cache: Cache, plugins: URL, environment: [String: String] = [:]) async throws -> CommandRunner.Output {
        try await CommandRunner.host(
            arguments + ["--plugins-dir", plugins.path], environment: cache.environment.merging(environment) { $1 })
    }

    func plugins(_ output: CommandRunner.Output) throws -> [PluginRow] {
        try JSONDecoder().decode([PluginRow].self, from: Data(output.stdout.utf8))
    }

    @Test("Warm and cold runs list the same fetchers and plugins; the warm one says they came from the cache")
    func warmAndCold() async throws {
        let directory = try await FixturePlugins.directory(containing: [FixturePlugins.Variant.cPlugin.fixture, Self.wow], bundled: ["Ethereum"])
        let cache = Cache()
        let cold = try await host(["list-fetchers", "--format", "json"], cache: cache, plugins: directory)
        let warm = try await host(["list-fetchers", "--format", "json"], cache: cache, plugins: directory)
        let uncached = try await host(["list-fetchers", "--format", "json", "--no-cache"], cache: Cache(), plugins: directory)
        #expect(cold.status == 0 && warm.status == 0 && uncached.status == 0)
        #expect(cold.stdout.contains("\"WOW\"") && cold.stdout.contains("\"DOGE\"") && cold.stdout.contains("\"ETH\""))
        #expect(warm.stdout == cold.stdout)
        #expect(uncached.stdout == cold.stdout)
        #expect(warm.stderr.isEmpty, "\(warm.stderr)")

        let listed = try plugins(await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory))
        #expect(listed.map(\.name) == ["CDogecoinPlugin", "EthereumPlugin", "WowPlugin"])
        #expect(listed.allSatisfy { $0.cached && $0.status == "loaded" })
        let fresh = try plugins(await host(["list-plugins", "--format", "json"], cache: Cache(), plugins: directory))
        #expect(fresh.allSatisfy { !$0.cached })
        #expect(cache.files.count == 1)
    }

    @Test("--no-cache and HOST_NO_CACHE=1 neither read nor write the cache", arguments: [(["--no-cache"], [String: String]()), ([], ["HOST_NO_CACHE": "1"])])
    func noCache(flags: [String], environment: [String: String]) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let cache = Cache()
        let output = try await host(["list-plugins", "--format", "json"] + flags, cache: cache, plugins: directory, environment: environment)
        #expect(output.status == 0)
        #expect(try plugins(output).map(\.cached) == [false])
        #expect(cache.files.isEmpty)
    }

    @Test("A fetch loads only the plugin that provides the symbol: a slow plugin is scanned once and never loaded by another symbol's fetch")
    func lazyFetch() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.slow, Self.wow])
        let cache = Cache()
        let marker = try TemporaryDirectory.make().appending(path: "marker").path
        let environment = ["FIXTURE_MARKER": marker]
        let api = try await Self.apiBase(for: ["WOW": "2.00"])

        // The cold run scans both, each in a sandboxed worker that cannot write the marker.
        let cold = try await host(["list-fetchers"], cache: cache, plugins: directory, environment: environment)
        #expect(cold.status == 0)
        #expect(cold.stdout.contains("SLOW") && cold.stdout.contains("WOW"))
        #expect(!FileManager.default.fileExists(atPath: marker))

        // In-process, as a user who trusts them asks: the slow plugin would mark if loaded.
        let fetch = try await host(["fetch", "WOW", "--no-isolate", "--api-base-url", api], cache: cache, plugins: directory, environment: environment)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(fetch.stdout.contains("WOW") && fetch.stdout.contains("2.00"))
        #expect(!FileManager.default.fileExists(atPath: marker), "fetching WOW loaded SlowPlugin")

        // The marker works: fetching SLOW does load it.
        let slow = try await host(["fetch", "SLOW", "--no-isolate", "--api-base-url", api], cache: cache, plugins: directory, environment: environment)
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "loaded\n")
        #expect(slow.elapsed >= .seconds(4))
    }

    @Test("An unknown symbol is exit 2, listing the symbols the cache knows")
    func unknownSymbol() async throws {
        let directory = try await FixturePlugins.directory(containing: [FixturePlugins.Variant.cPlugin.fixture, Self.wow])
        let cache = Cache()
        _ = try await host(["list-fetchers"], cache: cache, plugins: directory)
        let output = try await host(["fetch", "NOPE"], cache: cache, plugins: directory)
        #expect(output.status == 2)
        #expect(output.stderrLines == ["host: error: NOPE: unknown symbol NOPE; available symbols: DOGE, WOW"])
    }

    @Test("A replaced plugin file is scanned again, never listed from the cache")
    func replacedFile() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let cache = Cache()
        let first = try await host(["list-fetchers", "--format", "json"], cache: cache, plugins: directory)
        #expect(first.stdout.contains("\"DOGE\""))

        // Same path, other content: WOW instead of DOGE, put in place by rename as installers do.
        let target = directory.appending(path: FixturePlugins.Variant.cPlugin.fileName)
        let staged = directory.appending(path: ".staged")
        try FileManager.default.copyItem(at: await FixturePlugins.library(Self.wow), to: staged)
        #expect(rename(staged.path, target.path) == 0)

        let listed = try plugins(await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory))
        #expect(listed.map(\.fetchers) == [["WOW"]])
        #expect(listed.map(\.cached) == [false])
        let again = try plugins(await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory))
        #expect(again.map(\.cached) == [true])
    }

    @Test("After one file changed, the cache is rewritten exactly as a full rescan writes it")
    func rewriteAfterChange() async throws {
        let zed = FixturePlugins.Fixture(fileName: "libZedPlugin.so", defines: ["-DFIXTURE_SYMBOL=\"ZED\"", "-DFIXTURE_NAME=\"ZedPlugin\""])
        let directory = try await FixturePlugins.directory(containing: [FixturePlugins.Variant.cPlugin.fixture, Self.wow, zed])
        let cache = Cache()
        _ = try await host(["list-fetchers"], cache: cache, plugins: directory)
        // The middle file replaced: the entries before and after it are kept, their lines copied as read.
        let target = directory.appending(path: Self.wow.fileName)
        let staged = directory.appending(path: ".staged")
        try FileManager.default.copyItem(at: await FixturePlugins.library(FixturePlugins.Variant.cPlugin.fixture), to: staged)
        #expect(rename(staged.path, target.path) == 0)
        // Two files now provide DOGE: both are its sources.
        let listed = try await host(["list-fetchers"], cache: cache, plugins: directory)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.split(separator: "\n").count { $0.hasPrefix("DOGE ") } == 2)
        #expect(listed.stderrLines.isEmpty)
        let file = try #require(cache.files.first)
        let rewritten = try Data(contentsOf: file)

        // A rescan runs its workers two at a time: whichever answers first, the cache says the same.
        let rescan = try await host(["rescan"], cache: cache, plugins: directory)
        #expect(rescan.status == 0, "\(rescan.stderr)")
        #expect(try Data(contentsOf: file) == rewritten)
        #expect(try await host(["list-fetchers"], cache: cache, plugins: directory).stdout == listed.stdout)
    }

    @Test("A fetch starts an isolated plugin's worker while it lists, and stops it unused when the listing then refuses the plugin; an in-process fetch starts none")
    func workerStartedWhileListing() async throws {
        let directory = try await FixturePlugins.directory(containing: [FixturePlugins.Variant.cPlugin.fixture, Self.wow])
        let cache = Cache()
        let plugin = "\(directory.path)/libCDogecoinPlugin.so"
        let started = "host: debug: \(plugin): worker started while the listing is composed"
        let stopped = "host: debug: \(plugin): its worker was not used, and is stopped"
        _ = try await host(["list-fetchers"], cache: cache, plugins: directory)
        let api = try await Self.apiBase(for: ["DOGE": "0.12", "WOW": "2.00"])

        // Nobody vouched for it, so it runs isolated: the worker started while listing serves the fetch.
        let fetch = try await host(["fetch", "DOGE", "-v", "--api-base-url", api], cache: cache, plugins: directory)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(fetch.stdout.contains("DOGE") && fetch.stdout.contains("0.12"))
        #expect(fetch.stderrLines.contains(started))
        #expect(fetch.stderrLines.contains { $0.hasPrefix("host: debug: \(plugin): loaded isolated on demand in") })
        #expect(!fetch.stderrLines.contains(stopped))

        // In-process: no worker at all.
        let inProcess = try await host(["fetch", "WOW", "--no-isolate", "-v", "--api-base-url", api], cache: cache, plugins: directory)
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        #expect(!inProcess.stderrLines.contains { $0.contains("worker started") })

        // Refused when listed (a full sandbox required, seccomp off for this run): its worker never loads it and is stopped.
        let refused = try await host(
            ["fetch", "DOGE", "--require-sandbox", "-v", "--api-base-url", api], cache: cache, plugins: directory,
            environment: ["HOST_SANDBOX_DISABLE": "seccomp"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderrLines.contains(started) && refused.stderrLines.contains(stopped))
        #expect(!refused.stderrLines.contains { $0.contains("loaded isolated on demand") })
    }

    @Test("A plugin that fails its scan is remembered as failed until its file changes; rescan tries it again")
    func failedScanRemembered() async throws {
        let directory = try await FixturePlugins.directory(with: [.segfaultInRegistration, .cPlugin])
        let cache = Cache()
        let first = try plugins(await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory))
        let second = try plugins(await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory))
        let crashed = try #require(first.first { $0.name == "segfault-in-registration.so" })
        #expect(crashed.status == "failed")
        #expect(crashed.error?.contains("SIGSEGV") == true, "\(crashed)")
        #expect(!crashed.cached)
        #expect(second.first { $0.name == crashed.name } == PluginRow(
            name: crashed.name, status: "failed", mode: crashed.mode, modeReason: crashed.modeReason, vouchedBy: crashed.vouchedBy, cached: true, sandbox: crashed.sandbox,
            fetchers: [], error: crashed.error))

        let rescan = try await host(["rescan"], cache: cache, plugins: directory)
        #expect(rescan.status == 0)
        #expect(rescan.stdout.hasPrefix("scanned 2 plugin files: 1 loaded, 1 failed; wrote \(cache.home.path)/patchbay/registry-"))
        #expect(try plugins(await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory)).allSatisfy(\.cached))
    }

    /// Ways a cache file goes bad, and the reason the warning gives.
    enum Spoiling: String, CaseIterable, Sendable {
        case corrupt, truncated, groupWritable, foreignOwned

        func apply(to file: URL) throws -> String {
            switch self {
            case .corrupt:
                try Data("{\"format\": 2, \"entries\": [{]".utf8).write(to: file)
                return "it is truncated or corrupt"
            case .truncated:
                let data = try Data(contentsOf: file)
                try data.prefix(data.count / 2).write(to: file)
                return "it is truncated or corrupt"
            case .groupWritable:
                #expect(chmod(file.path, 0o620) == 0)
                return "others may write it (mode 620)"
            case .foreignOwned:
                #expect(chown(file.path, 65534, 65534) == 0)
                return "it belongs to uid 65534, not to you"
            }
        }
    }

    // Only root can give a file away, so other users skip that case.
    @Test(
        "A corrupt, truncated, group-writable or foreign-owned cache is rebuilt, with one warning",
        arguments: Spoiling.allCases.filter { $0 != .foreignOwned || geteuid() == 0 })
    func spoiledCache(spoiling: Spoiling) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let cache = Cache()
        let first = try await host(["list-fetchers"], cache: cache, plugins: directory)
        let file = try #require(cache.files.first)
        let reason = try spoiling.apply(to: file)

        let rebuilt = try await host(["list-fetchers"], cache: cache, plugins: directory)
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stdout == first.stdout)
        #expect(rebuilt.stderrLines.count == 1)
        #expect(rebuilt.stderrLines.first?.hasPrefix("host: warning: ignoring the plugin cache \(file.path): \(reason)") == true, "\(rebuilt.stderr)")
        #expect(rebuilt.stderrLines.first?.hasSuffix("; rebuilding it") == true)

        let after = try await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory)
        #expect(after.stderr.isEmpty, "\(after.stderr)")
        #expect(try plugins(after).map(\.cached) == [true])
    }

    @Test("Ten hosts started at once on an empty cache all succeed and leave a valid cache")
    func tenAtOnce() async throws {
        let directory = try await FixturePlugins.directory(containing: [FixturePlugins.Variant.cPlugin.fixture, Self.wow], bundled: ["Bitcoin"])
        let cache = Cache()
        let outputs = try await withThrowingTaskGroup(of: CommandRunner.Output.self) { group in
            for _ in 0..<10 {
                group.addTask { try await host(["list-fetchers", "--format", "json"], cache: cache, plugins: directory) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outputs.allSatisfy { $0.status == 0 && $0.stderr.isEmpty })
        #expect(Set(outputs.map(\.stdout)).count == 1)
        #expect(cache.files.count == 1, "\(cache.files)")
        let after = try await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory)
        #expect(after.stderr.isEmpty)
        #expect(try plugins(after).map(\.cached) == [true, true, true])
    }

    @Test("An unvouched plugin runs in a sandboxed worker by default, even pinned by a lock file; bundled and trusted ones run in-process")
    func sandboxedByDefault() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let cache = Cache()
        // No --plugins-dir: the bundled plugins beside `host`, then ./plugins.
        let workingDirectory = directory.deletingLastPathComponent()
        let environment = cache.environment.merging(["XDG_CONFIG_HOME": try TemporaryDirectory.make().path]) { $1 }
        func listing(_ arguments: [String] = []) async throws -> [PluginRow] {
            try plugins(
                await CommandRunner.host(
                    ["list-plugins", "--format", "json"] + arguments, environment: environment, in: workingDirectory))
        }
        let rows = try await listing()
        let bundled = try #require(rows.first { $0.name == "EthereumPlugin" })
        let thirdParty = try #require(rows.first { $0.name == "CDogecoinPlugin" })
        #expect(bundled.mode == "in-process" && bundled.modeReason == "bundled with the host" && bundled.sandbox == "none")
        #expect(bundled.vouchedBy == "bundled")
        #expect(thirdParty.mode == "isolated" && thirdParty.vouchedBy == "nobody")
        #expect(thirdParty.modeReason == "nobody vouched for it")
        #expect(thirdParty.sandbox != "none")

        // The fetch runs DOGE in a worker.
        let api = try await Self.apiBase(for: ["DOGE": "0.12"])
        let fetch = try await CommandRunner.host(
            ["fetch", "DOGE", "-v", "--api-base-url", api], environment: environment, in: workingDirectory)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(fetch.stderrLines.contains { $0.hasSuffix("libCDogecoinPlugin.so: loaded isolated on demand") || $0.contains("libCDogecoinPlugin.so: loaded isolated on demand in") })

        // Pinned in a lock file beside it, it is not vouched for.
        try await HostFixtures.writeLock(for: ["libCDogecoinPlugin.so"], in: directory)
        let pinned = try #require(try await listing().first { $0.name == "CDogecoinPlugin" })
        #expect(pinned.mode == "isolated" && pinned.vouchedBy == "nobody")

        // Vouched for by the user, it runs in-process.
        let trust = try await CommandRunner.host(["trust", "plugins/libCDogecoinPlugin.so"], environment: environment, in: workingDirectory)
        #expect(trust.status == 0, "\(trust.stderr)")
        let trusted = try #require(try await listing().first { $0.name == "CDogecoinPlugin" })
        #expect(trusted.mode == "in-process" && trusted.vouchedBy == "trust-store")

        // The switches override both ways.
        #expect(try await listing(["--isolate"]).allSatisfy { $0.mode == "isolated" && $0.modeReason == "--isolate" })
        #expect(try await listing(["--no-isolate"]).allSatisfy { $0.mode == "in-process" && $0.modeReason == "--no-isolate" })
    }
}
