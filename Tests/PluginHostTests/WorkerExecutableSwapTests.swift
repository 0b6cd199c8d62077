import Foundation
import Glibc
import Testing

@testable import PluginHost

/// The worker a host runs is the file it checked (`WorkerFile`): started by
/// its descriptor (`execveat`), not by its path, which by then could name
/// another file. Here another program takes the checked worker's path
/// after the check, as whoever could write there would put one.
@Suite("The worker executable run is the one checked", .timeLimit(.minutes(10)))
struct WorkerExecutableSwapTests {
    @Test("A worker replaced at its path after the check: the checked file still runs, and sends its first frame")
    func replacedAfterTheCheck() async throws {
        let directory = try TemporaryDirectory.make()
        try await BuildCopies.copy(["patchbay-worker"], to: directory)
        let path = directory.appending(path: "patchbay-worker").path
        let file = try WorkerExecutable.check(path, rules: TrustRules(currentUser: UInt32(geteuid()))).get()
        // A program that exits at once, writing nothing, in the worker's place.
        let impostor = directory.appending(path: "impostor").path
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: impostor)
        #expect(rename(impostor, path) == 0)

        let plugin = open(try await FixturePlugins.library(.cPlugin).path, O_RDONLY | O_CLOEXEC)
        defer { close(plugin) }
        let worker = try await WorkerProcess.spawn(executable: file, plugin: plugin)
        defer {
            close(worker.toWorker)
            close(worker.fromWorker)
            close(worker.output)
        }
        // The worker's first frame (its sandbox report) begins with its length; /bin/true writes nothing.
        let prefix = await Task.detached {
            var bytes = [UInt8](repeating: 0, count: 4)
            return read(worker.fromWorker, &bytes, 4)
        }.value
        worker.kill()
        _ = await worker.exit()
        #expect(prefix == 4, "the file now at \(path) ran, not the one checked")
    }
}
