import Foundation
import Testing

/// The checks before `dlopen`, through the `host` executable: each refused
/// file gets one line naming it, the check and the fix, shows as `failed` in
/// `list-plugins`, and the bundled Ethereum plugin in the same run still
/// fetches.
@Suite("Trust checks before loading, end to end", .timeLimit(.minutes(10)))
struct TrustEndToEndTests {
    /// `fetch ETH DOGE`: ETH must work; DOGE's plugin is the one refused.
    func fetchBoth(_ directories: [URL], extra: [String] = []) async throws -> CommandRunner.Output {
        try await CommandRunner.host(
            ["fetch", "ETH", "DOGE", "--api-base-url", HostFixtures.coinbase] + directories.flatMap { ["--plugins-dir", $0.path] } + extra)
    }

    static let unknownDOGE = "host: error: DOGE: unknown symbol DOGE; available symbols: ETH; 1 plugin file failed to load and may provide it: run `host list-plugins` to see why"

    @Test("A plugin others can write is refused with the chmod that fixes it", arguments: [
        (mode_t(0o757), "world-writable (mode 0757)", "o"),
        (mode_t(0o775), "group-writable (mode 0775)", "g"),
        (mode_t(0o777), "group- and world-writable (mode 0777)", "go"),
    ])
    func writablePlugin(mode: mode_t, finding: String, who: String) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let plugin = directory.appending(path: "libCDogecoinPlugin.so").path
        try HostFixtures.chmod(plugin, mode)

        let output = try await fetchBoth([directory])

        let refusal = "refused (not writable by others): it is \(finding), so other users could replace its code; run `chmod \(who)-w \(plugin)`"
        #expect(output.status == 2)
        #expect(output.stdout.contains(HostFixtures.ethRow), "\(output.stdout)")
        #expect(output.stderrLines == ["host: warning: skipping \(plugin): \(refusal)", Self.unknownDOGE])

        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path])
        #expect(listed.status == 0)
        let rows = try HostFixtures.pluginRows(listed.stdout)
        #expect(rows["libCDogecoinPlugin.so"]?["status"] as? String == "failed")
        #expect(rows["libCDogecoinPlugin.so"]?["error"] as? String == refusal)
        #expect(rows["libEthereumPlugin.so"]?["status"] as? String == "loaded")

        try HostFixtures.chmod(plugin, 0o755)
        let fixed = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path])
        #expect(fixed.stdout.contains("DOGE"), "after the suggested chmod the plugin loads")
    }

    @Test("Every plugin in a directory its group or others can write is refused; another directory's still load", arguments: [
        (mode_t(0o775), "group-writable (mode 0775)", "g"),
        (mode_t(0o770), "group-writable (mode 0770)", "g"),
        (mode_t(0o777), "group- and world-writable (mode 0777)", "go"),
        (mode_t(0o1777), "group- and world-writable (mode 1777)", "go"),
    ])
    func writableDirectory(mode: mode_t, finding: String, who: String) async throws {
        let good = try await FixturePlugins.directory(with: [], bundled: ["Ethereum"])
        let bad = try await FixturePlugins.directory(with: [.cPlugin])
        try HostFixtures.chmod(bad.path, mode)

        let output = try await fetchBoth([good, bad])

        let refusal = "refused (not writable by others): its directory \(bad.path) is \(finding), so other users could swap the plugin; run `chmod \(who)-w \(bad.path)`"
        #expect(output.status == 2)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == ["host: warning: skipping \(bad.path)/libCDogecoinPlugin.so: \(refusal)", Self.unknownDOGE])

        try HostFixtures.chmod(bad.path, 0o755)
        let fixed = try await CommandRunner.host(["list-fetchers", "--plugins-dir", bad.path])
        #expect(fixed.stdout.contains("DOGE"), "after the suggested chmod the plugin loads")
    }

    /// How a symlink's target is made bad, and the refusal it earns.
    enum BadTarget: String, CaseIterable, Sendable {
        case worldWritable, inWorldWritableDirectory, dangling, namedPipe
    }

    @Test("A symlink is followed and its target must pass the same checks", arguments: BadTarget.allCases)
    func symlinkToBadTarget(bad: BadTarget) async throws {
        let directory = try await FixturePlugins.directory(with: [], bundled: ["Ethereum"])
        let elsewhere = try TemporaryDirectory.make()
        let target = elsewhere.appending(path: "real.so").path
        switch bad {
        case .namedPipe: #expect(mkfifo(target, 0o644) == 0)
        case .dangling: break
        default: try FileManager.default.copyItem(atPath: await FixturePlugins.library(.cPlugin).path, toPath: target)
        }
        if bad == .worldWritable { try HostFixtures.chmod(target, 0o757) }
        if bad == .inWorldWritableDirectory { try HostFixtures.chmod(elsewhere.path, 0o777) }
        let link = directory.appending(path: "libCDogecoinPlugin.so").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let output = try await fetchBoth([directory])

        let refusal =
            switch bad {
            case .worldWritable:
                "refused (not writable by others): it is a symlink to \(target), which is world-writable (mode 0757), so other users could replace its code; run `chmod o-w \(target)`"
            case .inWorldWritableDirectory:
                "refused (not writable by others): it is a symlink to \(target), whose directory \(elsewhere.path) is group- and world-writable (mode 0777), so other users could swap the plugin; run `chmod go-w \(elsewhere.path)`"
            case .dangling:
                "refused (symlink target): it is a symlink to \(target), which cannot be opened (No such file or directory); point \(link) at a plugin file or remove it"
            case .namedPipe:
                "refused (regular file): it is a symlink to \(target), which is a named pipe, not a regular file; point \(link) at a plugin file or remove it"
            }
        #expect(output.status == 2)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == ["host: warning: skipping \(link): \(refusal)", Self.unknownDOGE])
    }

    @Test("A symlink to a private, well-formed plugin loads")
    func goodSymlink() async throws {
        let directory = try await FixturePlugins.directory(with: [], bundled: ["Ethereum"])
        try FileManager.default.createSymbolicLink(
            atPath: directory.appending(path: "libCDogecoinPlugin.so").path, withDestinationPath: await FixturePlugins.library(.cPlugin).path)
        let output = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.stdout.contains("DOGE") && output.stdout.contains("ETH"))
    }
}
