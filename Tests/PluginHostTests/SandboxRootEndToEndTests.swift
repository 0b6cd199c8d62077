import Foundation
import Testing

@testable import PluginHost

/// A worker sees no filesystem but its own (issue 35): a plugin nobody
/// vouched for, run as the host runs it by default (the registry cache on,
/// the plugin placed by trust, so in a sandboxed worker), learns nothing of
/// the user's files, the host's mounts, the kernel's state or the host's
/// name. `root_probe.c` reports what it could learn, and the test asserts
/// each finding exactly.
@Suite("A worker's own root, end to end", .timeLimit(.minutes(10)))
struct SandboxRootEndToEndTests {
    /// The probe's findings, by symbol, from one `host fetch` in the default mode.
    private func probe(home: URL, environment: [String: String] = [:]) async throws -> [String: String] {
        let marker = home.appending(path: ".ssh/id_rsa").path
        let link = home.appending(path: ".config/link").path
        let fixture = FixturePlugins.Fixture(
            fileName: "root-probe.so", source: "Tests/Fixtures/CPlugins/root_probe.c",
            defines: ["-DROOT_PROBE_MARKER=\"\(marker)\"", "-DROOT_PROBE_LINK=\"\(link)\""])
        let directory = try await FixturePlugins.directory(containing: [fixture])
        // Empty HOST_ISOLATE and HOST_NO_CACHE are unset: the default mode.
        let output = try await CommandRunner.host(
            ["fetch", "FILES", "CWD", "MOUNTS", "KERNEL", "UNAME", "--format", "json", "--plugins-dir", directory.path],
            environment: ["HOME": home.path, "HOST_ISOLATE": "", "HOST_NO_CACHE": ""].merging(environment) { $1 })
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        #expect(output.status == 1, "\(output.stderr)")
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in row["symbol"].map { ($0, row["error"] ?? "") } })
    }

    /// A home with a key and a link in it, as the red team's.
    private func home() throws -> URL {
        let home = try TemporaryDirectory.make()
        try FileManager.default.createDirectory(at: home.appending(path: ".ssh"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.appending(path: ".config"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: home.appending(path: ".ssh/id_rsa"))
        try FileManager.default.createSymbolicLink(atPath: home.appending(path: ".config/link").path, withDestinationPath: "/srv/where-it-points")
        return home
    }

    @Test(
        "A plugin in a sandboxed worker learns nothing of the user's files, the host's mounts, the kernel or the host's name",
        .enabled("the running kernel lets a child make user, PID and mount namespaces") { await KernelSandbox.has(.namespaces) }
    )
    func learnsNothing() async throws {
        let home = try home()
        let found = try await probe(home: home)

        #expect(found["FILES"] == "stat: No such file or directory; faccessat: No such file or directory; readlink: No such file or directory")
        #expect(found["CWD"] == "getcwd: /; /proc/self/cwd: /")
        // Only the worker's own mounts: its tmpfs root, its /proc, and a
        // read-only bind of each directory (or file) it needs to start.
        let worker = CommandRunner.buildDirectory.appending(path: "patchbay-worker").path
        let binds = WorkerRoot.paths(executable: worker).filter { path in
            var status = stat()
            return lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFLNK
        }
        #expect(found["MOUNTS"] == "mounts: " + (["/", "/proc"] + binds).sorted().joined(separator: ","))
        #expect(
            found["KERNEL"]
                == "/proc/cmdline: No such file or directory; /proc/sys/kernel/random/boot_id: No such file or directory; /proc/keys: No such file or directory; /proc/loadavg: No such file or directory; /proc/stat: No such file or directory"
        )
        #expect(found["UNAME"] == "uname: patchbay-worker")
    }

    @Test(
        "Without its namespaces the same probe sees the host: the test above tests something",
        .enabled("the running kernel lets a child make user, PID and mount namespaces") { await KernelSandbox.has(.namespaces) }
    )
    func withoutTheRootTheProbeSeesTheHost() async throws {
        let home = try home()
        let found = try await probe(home: home, environment: ["HOST_SANDBOX_DISABLE": "namespaces"])
        #expect(found["FILES"] == "stat: found; faccessat: found; readlink: /srv/where-it-points")
        var names = utsname()
        uname(&names)
        let nodeName = withUnsafeBytes(of: &names.nodename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(found["UNAME"] == "uname: \(nodeName)")
    }
}
