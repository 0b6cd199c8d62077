import Foundation
import Synchronization
import Testing

/// The parent-death signal is one a plugin cannot catch or ignore.
extension SandboxEndToEndTests {
    @Test("A worker whose plugin ignores SIGTERM and hides its pipe from the host still dies with a host killed by SIGKILL")
    func workerThatIgnoresSIGTERMDiesWithTheHost() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.singleRuleProbes(in: try TemporaryDirectory.make())])
        let host = Process()
        host.executableURL = CommandRunner.buildDirectory.appending(path: "host")
        host.arguments = ["fetch", "IGNORETERM", "--timeout", "120", "--plugins-dir", directory.path]
        host.environment = ["PATH": "/usr/bin:/bin", "XDG_DATA_HOME": try TemporaryDirectory.make().path, "XDG_CACHE_HOME": try TemporaryDirectory.make().path]
        host.currentDirectoryURL = try TemporaryDirectory.make()
        let errors = Pipe()
        host.standardError = errors
        host.standardOutput = FileHandle.nullDevice
        host.standardInput = FileHandle.nullDevice
        // The host logs its worker's output: its end of file is the signal that the host is gone.
        let (chunks, feed) = AsyncStream<Data>.makeStream()
        try host.run()
        let hostPID = host.processIdentifier
        DispatchQueue.global().async {
            errors.fileHandleForReading.readChunks { feed.yield(Data($0)) }
            feed.finish()
        }

        let waiting = Mutex<Int32?>(nil)
        let shown = Mutex("")
        do {
            try await Deadline.within(.seconds(300), "the end of the host's stderr") {
                var text = ""
                for await chunk in chunks {
                    text += String(decoding: chunk, as: UTF8.self)
                    shown.withLock { $0 = text }
                    guard waiting.withLock({ $0 }) == nil, text.contains("] warning: worker waiting\n") else { continue }
                    // NB: the worker said so through the host, which has it as a child by then; the
                    // listing in /proc can trail that by a moment, so it is read again, a bounded number of times.
                    for _ in 0..<1000 {
                        if let pid = Self.children(of: hostPID).first {
                            waiting.withLock { $0 = pid }
                            kill(hostPID, SIGKILL)
                            break
                        }
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                }
            }
        } catch {
            kill(hostPID, SIGKILL)
            if let worker = waiting.withLock({ $0 }) { kill(worker, SIGKILL) }
            throw error
        }

        let worker = try #require(waiting.withLock { $0 }, "the worker never said it was waiting, or had no process: \(shown.withLock { $0 })")
        // NB: 30 s, ten times the slowest idle run: a dying worker is reaped at once.
        let died = await LivingProcesses.settle(within: .seconds(30)) { !LivingProcesses.isAlive(worker) }
        if !died { kill(worker, SIGKILL) }
        #expect(died, "the worker \(worker) outlived its host")
    }
}
