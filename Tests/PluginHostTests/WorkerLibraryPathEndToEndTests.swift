import Foundation
import Glibc
import Testing

/// `LD_LIBRARY_PATH` reaches the worker, and so do its directories: an
/// installed host whose plugins need a library found only through it still
/// loads them in a worker with a root of its own (`WorkerLibraryPath`). A
/// directory others may write is left out of the worker's root and of its
/// variable alike, since the dynamic linker reads it before any sandbox.
@Suite("LD_LIBRARY_PATH in a worker's own root, end to end", .timeLimit(.minutes(10)))
struct WorkerLibraryPathEndToEndTests {
    /// A directory holding the library, and a plugins directory holding a plugin that needs it.
    private func layout() async throws -> (library: URL, plugins: URL) {
        let library = try TemporaryDirectory.make().appending(path: "lib")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let dependency = FixturePlugins.Fixture(
            fileName: "liblibrary_path_dependency.so", source: "Tests/Fixtures/CLibraries/library_path_dependency.c")
        try FileManager.default.copyItem(at: try await FixturePlugins.library(dependency), to: library.appending(path: dependency.fileName))
        // Linked against it with no run path: only LD_LIBRARY_PATH finds it.
        let linkedFrom = try await FixturePlugins.library(dependency).deletingLastPathComponent().path
        let plugin = FixturePlugins.Fixture(
            fileName: "liblibrary-path-plugin.so", source: "Tests/Fixtures/CPlugins/library_path_plugin.c",
            defines: ["-Wl,--no-as-needed", "-L\(linkedFrom)", "-llibrary_path_dependency"])
        return (library, try await FixturePlugins.directory(containing: [plugin]))
    }

    /// The default mode: the registry cache on, the plugin nobody vouched for in a sandboxed worker.
    private static let defaultMode = ["HOST_ISOLATE": "", "HOST_NO_CACHE": ""]

    @Test(
        "A plugin that needs a library found through LD_LIBRARY_PATH loads and fetches in a worker with its own root",
        .enabled("the running kernel lets a child make user, PID and mount namespaces") { await KernelSandbox.has(.namespaces) }
    )
    func libraryFoundInTheWorkersRoot() async throws {
        let (library, plugins) = try await layout()

        let output = try await CommandRunner.host(
            ["fetch", "LIBPATH", "--format", "json", "--plugins-dir", plugins.path],
            environment: Self.defaultMode.merging(["LD_LIBRARY_PATH": "relative/lib::\(library.path)"]) { $1 })

        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        #expect(rows.first?["error"] == "found through LD_LIBRARY_PATH", "\(output.stdout)\(output.stderr)")
        #expect(output.status == 1)
    }

    @Test("A world-writable directory on LD_LIBRARY_PATH is not in the worker's root: the plugin that needs it fails to load")
    func writableDirectoryLeftOut() async throws {
        let (library, plugins) = try await layout()
        try HostFixtures.chmod(library.path, 0o777)

        let output = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", plugins.path],
            environment: Self.defaultMode.merging(["LD_LIBRARY_PATH": library.path]) { $1 })

        let row = try HostFixtures.pluginRows(output.stdout)["liblibrary-path-plugin.so"]
        #expect(row?["status"] as? String == "failed", "\(output.stdout)")
        let error = row?["error"] as? String ?? ""
        #expect(error.hasPrefix("it needs liblibrary_path_dependency.so, which neither this host's Swift runtime ("), "\(error)")
    }
}
