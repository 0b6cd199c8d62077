import Foundation
import Testing

@testable import PluginHost

/// The parent-death signal is one a plugin cannot catch or ignore.
extension SandboxEndToEndTests {
    @Test("A worker whose plugin ignores SIGTERM and hides its pipe from the host still dies with a host killed by SIGKILL")
    func workerThatIgnoresSIGTERMDiesWithTheHost() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.singleRuleProbes(in: try TemporaryDirectory.make())])

        // The worker's end is awaited on its pidfd, opened while it waits:
        // its pid cannot name another process before then.
        let (seen, stderr) = try await Self.killHostOnceWorkerWaits(
            ["fetch", "IGNORETERM", "--timeout", "120", "--plugins-dir", directory.path],
            environment: ["XDG_DATA_HOME": try TemporaryDirectory.make().path, "XDG_CACHE_HOME": try TemporaryDirectory.make().path],
            within: .seconds(300)
        ) { pid in WorkerExitWatch(pid: pid) }

        let (worker, watch) = try #require(seen, "the worker never said it was waiting, or had no process: \(stderr)")
        // NB: 30 s, ten times the slowest idle run: a dying worker ends at once.
        let died: Bool
        if let watch {
            died = (try? await Deadline.within(.seconds(30), "the worker's end") { await watch.ended() }) != nil
        } else {
            died = !LivingProcesses.isAlive(worker)  // it had ended before its pidfd could be opened
        }
        if !died { kill(worker, SIGKILL) }
        #expect(died, "the worker \(worker) outlived its host")
    }
}
