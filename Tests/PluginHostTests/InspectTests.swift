import Foundation
import Testing

/// `host inspect FILE`: what the host sees in one file, without fetching,
/// with the plugin's code run only in an isolated worker.
@Suite("host inspect", .timeLimit(.minutes(10)))
struct InspectTests {
    /// The JSON `host inspect --format json` printed.
    private func inspection(_ output: CommandRunner.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
    }

    private func checks(_ json: [String: Any]) -> [String: Bool] {
        var verdicts: [String: Bool] = [:]
        for check in json["checks"] as? [[String: Any]] ?? [] {
            if let name = check["check"] as? String, let path = check["path"] as? String, let passed = check["passed"] as? Bool {
                verdicts["\(name) \(URL(filePath: path).lastPathComponent)"] = passed
            }
        }
        return verdicts
    }

    @Test("A working plugin shows its descriptor, fetchers, passing checks and mode (isolated: nobody vouched for it), and exits 0")
    func workingPlugin() async throws {
        let directory = try await FixturePlugins.directory(containing: [DescriptorMetadataTests.withMetadata])
        let file = directory.appending(path: "with-metadata.so").path

        let output = try await CommandRunner.host(["inspect", file, "--format", "json"])

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let json = try inspection(output)
        #expect(json["working"] as? Bool == true)
        #expect(json["name"] as? String == "MetadataPlugin")
        #expect(json["version"] as? String == "0.1.0")
        #expect(json["mode"] as? String == "isolated")
        #expect(json["vouchedBy"] as? String == "nobody")
        #expect(json["problem"] == nil)
        let descriptor = try #require(json["descriptor"] as? [String: Any])
        #expect(descriptor["abiVersion"] as? Int == 1)
        #expect(descriptor["structSize"] as? Int == 80)
        #expect(descriptor["hostMinimumStructSize"] as? Int == 40)
        #expect(descriptor["license"] as? String == "MIT")
        #expect(descriptor["author"] as? String == "Patchbay tests <tests@example.invalid>")
        let fetchers = try #require(json["fetchers"] as? [[String: Any]])
        #expect(fetchers.map { $0.mapValues { "\($0)" } } == [["symbol": "META", "displayName": "MetadataPlugin", "declaredRank": "128", "rank": "128"]])
        #expect(checks(json).values.allSatisfy { $0 }, "\(checks(json))")
        #expect(checks(json)["owner with-metadata.so"] == true && checks(json)["ELF shared library with-metadata.so"] == true)
        let lock = try #require(json["lock"] as? [String: Any])
        #expect(lock["verdict"] as? String == "unlocked")
        #expect(lock["sha256"] as? String == (try await HostFixtures.sha256sum(file)))
    }

    @Test("The table names each section, and the mode follows --isolate")
    func table() async throws {
        let directory = try await FixturePlugins.directory(containing: [DescriptorMetadataTests.withMetadata])
        let file = directory.appending(path: "with-metadata.so").path

        let output = try await CommandRunner.host(["inspect", file, "--isolate"])

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("\(file): a working plugin\n"))
        for line in ["  name         MetadataPlugin", "  license      MIT", "  META    MetadataPlugin  128", "  Problem       none"] {
            #expect(output.stdout.contains(line + "\n"), "\(output.stdout)")
        }
        #expect(output.stdout.contains("  Would load    isolated worker, sandbox "), "\(output.stdout)")
    }

    @Test("A file that is not a plugin exits 1, naming it, with the problem list-plugins shows")
    func junk() async throws {
        let directory = try await FixturePlugins.directory(containing: [], extraFiles: ["junk.so": Data("junk".utf8)])
        let file = directory.appending(path: "junk.so").path
        let problem = "not a loadable plugin library: the file is too short for an ELF header (4 bytes); remove it from the plugins directory or rebuild it"

        let output = try await CommandRunner.host(["inspect", file, "--format", "json"])

        #expect(output.status == 1)
        #expect(output.stderrLines.last == "host: error: \(file) is not a working plugin: \(problem)")
        let json = try inspection(output)
        #expect(json["working"] as? Bool == false)
        #expect(json["problem"] as? String == problem)
        #expect(json["descriptor"] == nil)
        #expect(checks(json)["ELF shared library junk.so"] == false)
        #expect(checks(json)["owner junk.so"] == true)

        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path])
        #expect(try HostFixtures.pluginRows(listed.stdout)["junk.so"]?["error"] as? String == problem)
    }

    @Test("A plugin that crashes while registering takes down only its worker; inspect reports the crash")
    func crashingPlugin() async throws {
        let file = try await FixturePlugins.directory(with: [.segfaultInRegistration]).appending(path: "segfault-in-registration.so").path

        let output = try await CommandRunner.host(["inspect", file, "--format", "json"])

        #expect(output.status == 1)
        let json = try inspection(output)
        let problem = try #require(json["problem"] as? String)
        #expect(problem.hasPrefix("the plugin crashed with SIGSEGV (segmentation fault) while loading, in its isolated worker"), "\(problem)")
        #expect(output.stderrLines.last == "host: error: \(file) is not a working plugin: \(problem)")
    }

    @Test("Every failing trust check gets its own verdict, and the lock file its own")
    func failingChecks() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let file = directory.appending(path: "libCDogecoinPlugin.so").path
        try HostFixtures.chmod(file, 0o666)
        try Data("\(String(repeating: "0", count: 64))  libCDogecoinPlugin.so\n".utf8).write(to: directory.appending(path: "plugins.lock"))

        let output = try await CommandRunner.host(["inspect", file, "--format", "json"])

        #expect(output.status == 1)
        let json = try inspection(output)
        #expect(checks(json)["not writable by others libCDogecoinPlugin.so"] == false)
        #expect(checks(json)["owner libCDogecoinPlugin.so"] == true)
        #expect(checks(json)["directory plugins"] == true)
        let lock = try #require(json["lock"] as? [String: Any])
        #expect(lock["verdict"] as? String == "mismatch")
        #expect((lock["problem"] as? String)?.hasPrefix("refused (lock file): its SHA-256 is ") == true)
        #expect((json["problem"] as? String)?.hasPrefix("refused (not writable by others): it is group- and world-writable (mode 0666)") == true)
    }

    @Test("--plugins-dir is refused: inspect reads the one file it is given")
    func pluginsDirectoryIsRefused() async throws {
        let output = try await CommandRunner.host(["inspect", "x.so", "--plugins-dir", "plugins"])

        #expect(output.status == 64)
        #expect(output.stderr.contains("inspect reads only the file it is given; drop --plugins-dir"), "\(output.stderr)")
    }

    @Test("A missing file is one line that names it and the reason, and exits 1")
    func missingFile() async throws {
        let file = try TemporaryDirectory.make().appending(path: "libMissingPlugin.so").path

        let output = try await CommandRunner.host(["inspect", file])

        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines == ["host: error: \(file): No such file or directory; give the path of a plugin file, e.g. `host inspect plugins/libMyPlugin.so`"])
    }
}
