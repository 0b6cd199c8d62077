import Foundation
import Testing

/// A plugin's libraries, end to end (issue 37 §1): one the loader cannot
/// find by itself but the host's Swift runtime directory has is taken from
/// there, in a worker and in-process alike (what a Swift plugin built with
/// the host's toolchain needs against an installed host); one that nobody
/// has is refused with one line naming it and the fix.
@Suite("Runtime libraries a plugin links, end to end", .timeLimit(.minutes(10)))
struct RuntimeLibrariesEndToEndTests {
    /// The default mode, the registry cache on and the plugin nobody vouched
    /// for in a sandboxed worker; and in-process, where the host's own
    /// `dlopen` must do the same (`--no-isolate`, with the cache off, so that
    /// the load is the host's and not a worker's scan).
    static let modes: [(name: String, environment: [String: String])] = [
        ("sandboxed", ["HOST_ISOLATE": "", "HOST_NO_CACHE": ""]),
        ("in-process", ["HOST_ISOLATE": "0", "HOST_NO_CACHE": "1"]),
    ]

    /// The directory of the `libswiftCore.so` the built `host` runs on, as
    /// `ldd` finds it: the toolchain's runtime directory, for a checkout build.
    private static func swiftRuntimeDirectory() async throws -> String {
        let ldd = try await CommandRunner.run(URL(filePath: "/usr/bin/ldd"), [CommandRunner.buildDirectory.appending(path: "host").path])
        let line = try #require(ldd.stdout.split(separator: "\n").first { $0.contains("libswiftCore.so => /") }, "\(ldd.stdout)")
        let path = try #require(line.split(separator: " ").first { $0.hasPrefix("/") })
        return URL(filePath: String(path)).deletingLastPathComponent().path
    }

    /// A plugin that links `libswiftObservation.so`, which neither `host`
    /// nor its worker loads, with no run path: the loader finds it only in
    /// the Swift runtime's directory, as it finds an installed host's.
    private static func observationPlugin() async throws -> URL {
        let plugin = FixturePlugins.Fixture(
            fileName: "libruntime-observation.so",
            defines: ["-DFIXTURE_SYMBOL=\"RTLIB\"", "-DFIXTURE_NAME=\"RuntimeLibraryPlugin\"",
                      "-Wl,--no-as-needed", "-L\(try await swiftRuntimeDirectory())", "-lswiftObservation"])
        return try await FixturePlugins.directory(containing: [plugin])
    }

    /// A plugin linked against a library built beside it, with no run path,
    /// and a host without that library anywhere it looks.
    private static func missingLibraryPlugin() async throws -> URL {
        let dependency = FixturePlugins.Fixture(
            fileName: "liblibrary_path_dependency.so", source: "Tests/Fixtures/CLibraries/library_path_dependency.c")
        let linkedFrom = try await FixturePlugins.library(dependency).deletingLastPathComponent().path
        let plugin = FixturePlugins.Fixture(
            fileName: "libneeds-missing-library.so", source: "Tests/Fixtures/CPlugins/library_path_plugin.c",
            defines: ["-Wl,--no-as-needed", "-L\(linkedFrom)", "-llibrary_path_dependency"])
        return try await FixturePlugins.directory(containing: [plugin])
    }

    @Test("A library only the host's Swift runtime directory has is taken from there", arguments: modes.indices)
    func runtimeLibraryLoads(mode: Int) async throws {
        let plugins = try await Self.observationPlugin()

        let output = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", plugins.path], environment: Self.modes[mode].environment)

        let row = try HostFixtures.pluginRows(output.stdout)["libruntime-observation.so"]
        #expect(row?["status"] as? String == "loaded", "\(Self.modes[mode].name): \(output.stdout)\(output.stderr)")
    }

    @Test("A library nobody has is refused with one line naming it, the runtime looked in and the fix", arguments: modes.indices)
    func missingLibraryRefused(mode: Int) async throws {
        let plugins = try await Self.missingLibraryPlugin()
        let version = try await CommandRunner.host(["--version"]).stdout
            .split(separator: "\n").first { $0.hasPrefix("Swift ") }.map(String.init) ?? "Swift ?"
        let expected = "it needs liblibrary_path_dependency.so, which neither this host's Swift runtime (\(try await Self.swiftRuntimeDirectory())) "
            + "nor the system's libraries have: rebuild the plugin with \(version), the toolchain that built this host (`host --version`), "
            + "or install liblibrary_path_dependency.so where the system's loader finds it (a directory `ldconfig` knows)"

        let listed = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", plugins.path], environment: Self.modes[mode].environment)
        let row = try HostFixtures.pluginRows(listed.stdout)["libneeds-missing-library.so"]
        #expect(row?["status"] as? String == "failed", "\(Self.modes[mode].name): \(listed.stdout)")
        #expect(row?["error"] as? String == expected, "\(Self.modes[mode].name)")

        let inspected = try await CommandRunner.host(
            ["inspect", plugins.appending(path: "libneeds-missing-library.so").path], environment: Self.modes[mode].environment)
        #expect(inspected.status == 1)
        #expect(inspected.stdout.contains("  Problem       \(expected)\n"), "\(Self.modes[mode].name): \(inspected.stdout)")
    }
}
