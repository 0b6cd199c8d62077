import Foundation
import Testing

/// `host new-plugin`: the project it writes builds and fetches with no edit.
/// The C project is built here; the Swift package, whose first build takes
/// half a minute, is built by `scripts/check-examples.sh`, which CI runs.
@Suite("host new-plugin", .timeLimit(.minutes(10)))
struct NewPluginTests {
    @Test("The C project builds as its README says, loads from ./plugins, and fetches through http_get")
    func cProjectBuildsAndFetches() async throws {
        let work = try TemporaryDirectory.make()
        let project = work.appending(path: "Dogecoin")

        let made = try await CommandRunner.host(["new-plugin", "Dogecoin", "--language", "c", "--symbol", "DOGE", "--output", project.path])

        #expect(made.status == 0, "\(made.stderr)")
        for file in ["plugin.c", "Makefile", "README.md", "include/patchbay_plugin.h"] {
            #expect(FileManager.default.fileExists(atPath: project.appending(path: file).path), "\(file)")
        }
        let header = try String(contentsOf: project.appending(path: "include/patchbay_plugin.h"), encoding: .utf8)
        let original = try String(contentsOf: FixturePlugins.repositoryRoot.appending(path: "Sources/PluginABI/include/patchbay_plugin.h"), encoding: .utf8)
        #expect(header == original)

        try await build(project)
        let fixtures = work.appending(path: "fixtures/v2/prices/DOGE-USD")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try Data(#"{"data":{"base":"DOGE","currency":"USD","amount":"0.10000000000000000001"}}"#.utf8).write(to: fixtures.appending(path: "spot.json"))
        let base = "file://" + work.appending(path: "fixtures").path

        // Run where the README says: in the project, where ./plugins is one of the usual directories.
        let fetched = try await CommandRunner.host(["fetch", "DOGE", "--api-base-url", base], in: project)

        #expect(fetched.status == 0, "\(fetched.stderr)")
        // ./plugins is nobody's vouch: the plugin is shown with its file.
        #expect(fetched.stdout.contains("DOGE    USD       0.10000000000000000001  DogecoinPlugin (unvouched, \(project.path)/plugins/libDogecoinPlugin.so)\n"), "\(fetched.stdout)")

        let missing = try await CommandRunner.host(["fetch", "DOGE", "--currency", "EUR", "--plugins-dir", "plugins", "--api-base-url", base], in: project)
        #expect(missing.status == 1)
        #expect(missing.stderrLines.last?.hasPrefix("host: error: DOGE: Coinbase answered HTTP 404 for DOGE-EUR: no fixture file at ") == true)
        #expect(missing.stderrLines.last?.hasSuffix("(not_found)") == true, "\(missing.stderr)")
    }

    @Test("The Swift package depends on this checkout's PluginSDK, without the Host trait")
    func swiftPackage() async throws {
        let project = try TemporaryDirectory.make().appending(path: "Dogecoin")

        let made = try await CommandRunner.host(["new-plugin", "Dogecoin", "--language", "swift", "--output", project.path])

        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try String(contentsOf: project.appending(path: "Package.swift"), encoding: .utf8)
        let checkout = FixturePlugins.repositoryRoot.standardized.path
        #expect(manifest.contains(#".package(name: "patchbay", path: "\#(checkout)", traits: [])"#), "\(manifest)")
        #expect(manifest.contains(#".library(name: "DogecoinPlugin", type: .dynamic, targets: ["DogecoinPlugin"])"#))
        let source = try String(contentsOf: project.appending(path: "Sources/DogecoinPlugin/DogecoinPlugin.swift"), encoding: .utf8)
        #expect(source.contains(#"CoinbaseSpotFetcher(base: "DOGECOIN""#), "\(source)")
    }

    @Test("A folder that is not empty, and a name that is not one, are refused with the fix", arguments: [
        (["new-plugin", "Doge coin", "--language", "c"], 64, "'Doge coin' is not a plugin name; use ASCII letters and digits"),
        (["new-plugin", "Dogecoin", "--language", "c", "--symbol", "doge"], 64, "--symbol 'doge' is not 1 to 16 of A-Z and 0-9"),
        (["new-plugin", "Dogecoin", "--language", "swift", "--output", "."], 1, "already exists and is not empty; pass --output DIR"),
    ])
    func refusals(arguments: [String], status: Int32, message: String) async throws {
        let directory = try TemporaryDirectory.make()
        try Data("x".utf8).write(to: directory.appending(path: "existing"))

        let output = try await CommandRunner.host(arguments, in: directory)

        #expect(output.status == status)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }

    @Test("Outside a checkout, either language asks for --sdk-path and writes nothing: there is no published URL to depend on", arguments: ["swift", "c"])
    func outsideCheckout(language: String) async throws {
        // A copy of host beside no checkout, as an installed host is.
        let bin = try TemporaryDirectory.make()
        try await BuildCopies.copy(["host"], to: bin)
        let installed = bin.appending(path: "host")
        let directory = try TemporaryDirectory.make()

        let output = try await CommandRunner.host(["new-plugin", "Dogecoin", "--language", language], in: directory, executable: installed)

        #expect(output.status == 1)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderrLines.first?.hasSuffix("and this host was not built in one; pass --sdk-path DIR") == true, "\(output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// `make`, as the README says; the Makefile's own command when there is no make.
    private func build(_ project: URL) async throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let hasMake = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/make") }
        if hasMake {
            try await HostFixtures.run("/usr/bin/env", ["make"], in: project)
        } else {
            try FileManager.default.createDirectory(at: project.appending(path: "plugins"), withIntermediateDirectories: true)
            try await HostFixtures.run(
                "/usr/bin/env", ["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-Iinclude", "-o", "plugins/libDogecoinPlugin.so", "plugin.c"],
                in: project)
        }
    }
}
