import Foundation
import Glibc
import Testing

/// `patchbay-worker` is held to the rules of `libHostHTTP.so` and plugin
/// files: in an installed layout (`PREFIX/bin/host`,
/// `PREFIX/lib/patchbay/patchbay-worker`) whose `lib/patchbay` others may
/// write, or whose worker another user owns, no worker starts: one line
/// says why, and every plugin that needs one is listed as failed with it.
@Suite("The worker executable is checked like a library", .timeLimit(.minutes(10)))
struct WorkerExecutableEndToEndTests {
    /// An installed copy of the host and its worker under a fresh prefix.
    static func installed() async throws -> (prefix: URL, host: URL, worker: String, library: String) {
        let prefix = try TemporaryDirectory.make()
        let bin = prefix.appending(path: "bin")
        let library = prefix.appending(path: "lib/patchbay")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: library.appending(path: "plugins"), withIntermediateDirectories: true)
        try await BuildCopies.copy(["host"], to: bin)
        try await BuildCopies.copy(["patchbay-worker"], to: library)
        return (prefix, bin.appending(path: "host"), library.appending(path: "patchbay-worker").path, library.path)
    }

    /// `list-plugins --format json` of the C fixture with that host, as a user runs it.
    static func listed(with host: URL) async throws -> (output: CommandRunner.Output, rows: [String: [String: Any]]) {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        let output = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path], executable: host)
        return (output, try HostFixtures.pluginRows(output.stdout))
    }

    @Test("An installed layout whose worker passes the rules runs plugins in it")
    func passingWorkerRuns() async throws {
        let layout = try await Self.installed()

        let (output, rows) = try await Self.listed(with: layout.host)

        #expect(output.stderrLines.isEmpty, "\(output.stderr)")
        #expect(rows["libCDogecoinPlugin.so"]?["status"] as? String == "loaded", "\(output.stdout)")
    }

    @Test("A world-writable lib/patchbay: the worker in it is refused in one line, and no plugin runs in it")
    func writableLibraryDirectory() async throws {
        let layout = try await Self.installed()
        try HostFixtures.chmod(layout.library, 0o777)

        let (output, rows) = try await Self.listed(with: layout.host)

        let line =
            "cannot run plugins in sandboxed workers: refused (not writable by others): the worker executable \(layout.worker) is in \(layout.library), which is group- and world-writable (mode 0777), so other users could run their code in place of every sandboxed plugin; run `chmod go-w \(layout.library)`"
        #expect(output.stderrLines == ["host: error: \(line)"])
        #expect(rows["libCDogecoinPlugin.so"]?["status"] as? String == "failed")
        #expect(rows["libCDogecoinPlugin.so"]?["error"] as? String == line)
    }

    @Test("A worker owned by another user is refused in one line, and no plugin runs in it",
          .enabled(if: geteuid() == 0, "needs root to hand the file to another user"))
    func foreignWorker() async throws {
        let layout = try await Self.installed()
        #expect(chown(layout.worker, 65534, 65534) == 0)

        let (output, rows) = try await Self.listed(with: layout.host)

        let line =
            "cannot run plugins in sandboxed workers: refused (owner): the worker executable \(layout.worker) is owned by uid 65534, not by you (uid 0) or root; if you trust it, run `sudo chown 0 \(layout.worker)`"
        #expect(output.stderrLines == ["host: error: \(line)"])
        #expect(rows["libCDogecoinPlugin.so"]?["status"] as? String == "failed")
        #expect(rows["libCDogecoinPlugin.so"]?["error"] as? String == line)
    }

    @Test("A group-writable worker is refused in one line")
    func writableWorker() async throws {
        let layout = try await Self.installed()
        try HostFixtures.chmod(layout.worker, 0o775)

        let (output, _) = try await Self.listed(with: layout.host)

        #expect(output.stderrLines == [
            "host: error: cannot run plugins in sandboxed workers: refused (not writable by others): the worker executable \(layout.worker) is group-writable (mode 0775), so other users could run their code in place of every sandboxed plugin; run `chmod g-w \(layout.worker)`"
        ])
    }
}
