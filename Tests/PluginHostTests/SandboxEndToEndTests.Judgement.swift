import Foundation
import Testing

/// What is shown is what holds now: with the registry cache on, `list-plugins`
/// and `--require-sandbox` judge the sandbox this run can give, not the one a
/// scan recorded, and `HOST_SANDBOX_DISABLE` is read the same way on every path.
extension SandboxEndToEndTests {
    /// Runs `host` with the host's defaults and one registry cache for every run of a test.
    func cached(_ arguments: [String], cache: URL, environment: [String: String] = [:]) async throws -> CommandRunner.Output {
        try await CommandRunner.host(arguments, environment: environment.merging(["XDG_CACHE_HOME": cache.path]) { $1 })
    }

    @Test(
        "list-plugins from a warm cache shows this run's sandbox: none with every layer turned off, though the scan got a full one",
        .enabled("the running kernel lacks part of the sandbox") { await KernelSandbox.isFull() }
    )
    func listingShowsThisRunsSandbox() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let cache = try TemporaryDirectory.make()
        let list = ["list-plugins", "--format", "json", "--plugins-dir", directory.path]

        let scanned = try await cached(list, cache: cache)
        #expect(try HostFixtures.pluginRows(scanned.stdout)["libCDogecoinPlugin.so"]?["sandbox"] as? String == "full")

        let now = try await cached(list, cache: cache, environment: ["HOST_SANDBOX_DISABLE": "all"])
        let row = try #require(try HostFixtures.pluginRows(now.stdout)["libCDogecoinPlugin.so"])
        #expect(row["cached"] as? Bool == true)
        #expect(row["sandbox"] as? String == "none")
        #expect(row["sandboxMissing"] as? [String] == [
            "Landlock (turned off for this run)", "seccomp filter (turned off for this run)", "resource limits (turned off for this run)",
            "namespaces (turned off for this run)",
        ])
    }

    @Test("--require-sandbox with a warm cache refuses, in the listing, a plugin this run could not give a full sandbox")
    func requireSandboxJudgesThisRun() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let plugin = "\(directory.path)/libCDogecoinPlugin.so"
        let cache = try TemporaryDirectory.make()
        _ = try await cached(["list-fetchers", "--plugins-dir", directory.path], cache: cache)
        let refusal =
            "refused (sandbox): a full sandbox is required, and its worker got a partial one: no seccomp filter (turned off for this run); turn the missing layers back on, or allow a partial sandbox"
        let disabled = ["HOST_SANDBOX_DISABLE": "seccomp"]

        let listed = try await cached(["list-plugins", "--require-sandbox", "--format", "json", "--plugins-dir", directory.path], cache: cache, environment: disabled)
        let row = try #require(try HostFixtures.pluginRows(listed.stdout)["libCDogecoinPlugin.so"])
        #expect(row["status"] as? String == "failed")
        #expect(row["error"] as? String == refusal)

        let fetchers = try await cached(["list-fetchers", "--require-sandbox", "--plugins-dir", directory.path], cache: cache, environment: disabled)
        #expect(fetchers.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n")
        #expect(fetchers.stderrLines == ["host: warning: skipping \(plugin): \(refusal)"])
    }

    @Test("A bad HOST_SANDBOX_DISABLE is refused on every path, a warm cache's too", arguments: [
        ["list-fetchers"], ["list-plugins"], ["fetch", "DOGE"], ["graph"], ["rescan"],
    ])
    func badSwitchEverywhere(command: [String]) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let cache = try TemporaryDirectory.make()
        _ = try await cached(["list-fetchers", "--plugins-dir", directory.path], cache: cache)

        let output = try await cached(command + ["--plugins-dir", directory.path], cache: cache, environment: ["HOST_SANDBOX_DISABLE": "landlock,bogus"])

        #expect(output.status == 64)
        #expect(output.stderrLines.first == "host: error: HOST_SANDBOX_DISABLE 'bogus' names no sandbox layer; use landlock, seccomp, rlimits, namespaces or all, separated by commas, or unset it")
    }

    @Test("inspect refuses a bad HOST_SANDBOX_DISABLE the same way")
    func badSwitchInspect() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let output = try await CommandRunner.host(
            ["inspect", directory.appending(path: "libCDogecoinPlugin.so").path], environment: ["HOST_SANDBOX_DISABLE": "landlock,bogus"])
        #expect(output.status == 64)
        #expect(output.stderrLines.first == "host: error: HOST_SANDBOX_DISABLE 'bogus' names no sandbox layer; use landlock, seccomp, rlimits, namespaces or all, separated by commas, or unset it")
    }
}
