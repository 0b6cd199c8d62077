import Foundation
@testable import PluginHost
import Testing

/// Where `host` looks for plugins, and in which order.
@Suite("Plugin search path", .timeLimit(.minutes(10)))
struct PluginDiscoveryTests {
    static func usual(dataHome: String? = "/home/u/.local/share") throws -> PluginDiscovery {
        try PluginDiscovery(
            flags: [], environment: nil, bundledDirectory: "/opt/host/bin", dataHome: dataHome,
            systemDirectories: ["/usr/local/lib/patchbay/plugins", "/usr/lib/patchbay/plugins"], workingDirectory: "/work")
    }

    @Test("Without flags or HOST_PLUGINS_DIR: bundled, the user's, the system's, then ./plugins")
    func usualDirectoriesInOrder() throws {
        let locations = try Self.usual().locations
        #expect(locations.map(\.directory) == [
            "/opt/host/bin", "/home/u/.local/share/patchbay/plugins", "/usr/local/lib/patchbay/plugins", "/usr/lib/patchbay/plugins",
            "/work/plugins",
        ])
        #expect(locations.map(\.origin) == [.bundled, .user, .system, .system, .workingDirectory])
        #expect(locations.map(\.pattern) == [.bundledPlugins, .anySharedLibrary, .anySharedLibrary, .anySharedLibrary, .anySharedLibrary])
        #expect(locations.allSatisfy { !$0.isExplicit })
    }

    @Test("Without a data directory the user's is skipped")
    func noDataHome() throws {
        #expect(try Self.usual(dataHome: nil).locations.map(\.origin) == [.bundled, .system, .system, .workingDirectory])
    }

    @Test("XDG_DATA_HOME wins over HOME; a relative XDG_DATA_HOME is ignored, as the XDG spec says")
    func dataHome() {
        #expect(PluginDiscovery.dataHome(xdgDataHome: "/data", home: "/home/u") == "/data")
        #expect(PluginDiscovery.dataHome(xdgDataHome: nil, home: "/home/u") == "/home/u/.local/share")
        #expect(PluginDiscovery.dataHome(xdgDataHome: "relative", home: "/home/u") == "/home/u/.local/share")
        #expect(PluginDiscovery.dataHome(xdgDataHome: nil, home: nil) == nil)
    }

    @Test("--plugins-dir, then HOST_PLUGINS_DIR, replace the usual directories")
    func explicitDirectories() throws {
        let flagged = try PluginDiscovery(flags: ["a", "b"], environment: "c", bundledDirectory: "/x", dataHome: "/d", workingDirectory: "/w")
        #expect(flagged.locations.map(\.directory) == ["a", "b"])
        let environment = try PluginDiscovery(flags: [], environment: "c:/d/e", bundledDirectory: "/x", dataHome: "/d", workingDirectory: "/w")
        #expect(environment.locations.map(\.directory) == ["c", "/d/e"])
        #expect(environment.locations.allSatisfy { $0.isExplicit && $0.origin == .named })
    }

    @Test("An empty or malformed HOST_PLUGINS_DIR is an error, not a silent fallback", arguments: ["", ":::", ":", "a::b", "a:", ":a"])
    func malformedEnvironment(value: String) {
        #expect(throws: PluginDiscovery.ConfigurationError(environmentValue: value)) {
            try PluginDiscovery(flags: [], environment: value, bundledDirectory: "/x", dataHome: "/d", workingDirectory: "/w")
        }
    }

    @Test("End to end: an empty or malformed HOST_PLUGINS_DIR exits 64 with one line", arguments: ["", ":::"])
    func malformedEnvironmentEndToEnd(value: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers"], environment: ["HOST_PLUGINS_DIR": value])
        #expect(output.status == 64)
        #expect(output.stdout == "")
        #expect(output.stderrLines.first == "host: error: HOST_PLUGINS_DIR '\(value)' has an empty entry; name directories separated by ':', e.g. HOST_PLUGINS_DIR=plugins:/opt/plugins, or unset it to search the usual directories")
    }

    static let userDoge = FixturePlugins.Fixture(fileName: "user-doge.so", defines: [#"-DFIXTURE_NAME="UserDoge""#])
    static let localDoge = FixturePlugins.Fixture(fileName: "local-doge.so", defines: [#"-DFIXTURE_NAME="LocalDoge""#])

    @Test("End to end: the user's directory comes after the bundled plugins and before ./plugins; of two plugins of one rank, the earlier is asked first")
    func usualOrderEndToEnd() async throws {
        let dataHome = try TemporaryDirectory.make()
        let userPlugins = dataHome.appending(path: "patchbay/plugins")
        try FileManager.default.createDirectory(at: userPlugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(Self.userDoge), to: userPlugins.appending(path: "user-doge.so"))
        let workingDirectory = try TemporaryDirectory.make()
        let localPlugins = workingDirectory.appending(path: "plugins")
        try FileManager.default.createDirectory(at: localPlugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(Self.localDoge), to: localPlugins.appending(path: "local-doge.so"))

        let output = try await CommandRunner.host(
            ["list-plugins", "--format", "json"], environment: ["XDG_DATA_HOME": dataHome.path], in: workingDirectory)

        #expect(output.status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]] ?? []
        let names = rows.compactMap { $0["name"] as? String }
        // The system directories may hold plugins on a developer's machine; on CI they are absent.
        let expected = ["BitcoinPlugin", "BitstampPlugin", "EthereumPlugin", "UserDoge", "LocalDoge"]
        #expect(names.filter { expected.contains($0) } == expected)
        let local = rows.first { $0["name"] as? String == "LocalDoge" }
        #expect(local?["status"] as? String == "loaded")
        let fetchers = try await CommandRunner.host(
            ["list-fetchers", "--format", "json"], environment: ["XDG_DATA_HOME": dataHome.path], in: workingDirectory)
        let sources = (try JSONSerialization.jsonObject(with: Data(fetchers.stdout.utf8)) as? [[String: Any]] ?? []).filter { $0["symbol"] as? String == "DOGE" }
        #expect(sources.map { $0["plugin"] as? String } == ["UserDoge", "LocalDoge"])
        #expect(sources.map { $0["default"] as? Bool } == [true, false])
    }
}
