import Foundation
import Testing

@testable import PluginHost

/// Where the plugins of each directory of the search path run, by default:
/// in-process only for the plugins bundled with the host; sandboxed for the
/// user's data directory, the system's, `./plugins`, `--plugins-dir` and
/// `HOST_PLUGINS_DIR`, which hold what anyone may have put there.
///
/// The fixture's constructor marks `$FIXTURE_MARKER`, which only a plugin in
/// the host's own process can: a worker gets neither the variable nor a
/// writable file system.
extension VouchingEndToEndTests {
    /// The marking plugin under a bundled plugin's name (`lib*Plugin.so`), so that every directory takes it.
    static let bundledTools = FixturePlugins.Fixture(
        fileName: "libPriceToolsPlugin.so", defines: ["-DFIXTURE_SLOW_CONSTRUCTOR=0", "-DFIXTURE_SYMBOL=\"TOOL\"", "-DFIXTURE_NAME=\"PriceToolsPlugin\""])

    /// A directory of the search path, as a user puts a plugin there.
    enum SearchPlace: String, CaseIterable, Sendable {
        case installedPrefix = "PREFIX/lib/patchbay/plugins of an installed host"
        case userData = "$XDG_DATA_HOME/patchbay/plugins"
        case workingDirectory = "./plugins"
        case flag = "--plugins-dir"
        case environment = "HOST_PLUGINS_DIR"
    }

    @Test("Each directory of the search path runs its plugins where it should: in-process only when bundled with an installed host", arguments: SearchPlace.allCases)
    func whereEachDirectoryRuns(place: SearchPlace) async throws {
        let user = User()
        let api = try await Self.api()
        let library = try await FixturePlugins.library(Self.bundledTools)
        let workingDirectory = try TemporaryDirectory.make()
        var executable: URL?
        var arguments = ["fetch", "TOOL", "--api-base-url", api]
        var environment = user.environment
        func put(in directory: URL) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: library, to: directory.appending(path: Self.bundledTools.fileName))
        }
        switch place {
        case .installedPrefix:
            let prefix = try TemporaryDirectory.make()
            let bin = prefix.appending(path: "bin")
            let lib = prefix.appending(path: "lib/patchbay")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try put(in: lib.appending(path: "plugins"))
            try await BuildCopies.copy(["host"], to: bin)
            try await BuildCopies.copy(["patchbay-worker", "libHostHTTP.so"], to: lib)
            executable = bin.appending(path: "host")
        case .userData:
            try put(in: user.data.appending(path: "patchbay/plugins"))
        case .workingDirectory:
            try put(in: workingDirectory.appending(path: "plugins"))
        case .flag:
            let directory = try TemporaryDirectory.make().appending(path: "plugins")
            try put(in: directory)
            arguments += ["--plugins-dir", directory.path]
        case .environment:
            let directory = try TemporaryDirectory.make().appending(path: "plugins")
            try put(in: directory)
            environment["HOST_PLUGINS_DIR"] = directory.path
        }

        let output = try await CommandRunner.host(arguments, environment: environment, in: workingDirectory, executable: executable)

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.unlabelled.stdout == Self.toolRow, "\(output.stderr)")
        #expect(output.stdout.contains("(unvouched, ") == (place != .installedPrefix), "\(output.stdout)")
        #expect(try user.ranInProcess() == (place == .installedPrefix), "a plugin in \(place.rawValue) ran \(place == .installedPrefix ? "sandboxed" : "in-process")")
    }

    @Test("The search path names each directory's origin: only the host's own is bundled")
    func originOfEachDirectory() throws {
        let discovery = try PluginDiscovery(
            flags: [], environment: nil, bundledDirectory: "/opt/patchbay/lib/patchbay/plugins", dataHome: "/home/me/.local/share",
            systemDirectories: ["/usr/local/lib/patchbay/plugins", "/usr/lib/patchbay/plugins"], workingDirectory: "/work")
        #expect(discovery.locations.map(\.directory) == [
            "/opt/patchbay/lib/patchbay/plugins", "/home/me/.local/share/patchbay/plugins", "/usr/local/lib/patchbay/plugins", "/usr/lib/patchbay/plugins",
            "/work/plugins",
        ])
        #expect(discovery.locations.map(\.origin) == [.bundled, .user, .system, .system, .workingDirectory])
        let named = try PluginDiscovery(flags: ["/a", "/b"], environment: "/c", bundledDirectory: "/opt", dataHome: "/d", workingDirectory: "/w")
        #expect(named.locations.map(\.origin) == [.named, .named])
        let fromEnvironment = try PluginDiscovery(flags: [], environment: "/c:/e", bundledDirectory: "/opt", dataHome: "/d", workingDirectory: "/w")
        #expect(fromEnvironment.locations.map(\.origin) == [.named, .named])
    }
}
