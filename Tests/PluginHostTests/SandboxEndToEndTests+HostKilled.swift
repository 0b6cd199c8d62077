import Foundation
import Synchronization
import Testing

/// What the parent-death tests share: a host whose plugin's worker waits
/// for ever, killed with SIGKILL once the worker says so.
extension SandboxEndToEndTests {
    /// Runs `host` with `arguments` until the worker logs "worker waiting"
    /// (through the host, whose child it is by then), passes the worker's
    /// pid to `inspect`, and kills the host with SIGKILL. The test and the
    /// worker meet on that line: nothing is polled.
    /// - Returns: What `inspect` saw, nil when the line never came (the host
    ///   ended first), and the host's stderr.
    /// - Throws: ``DeadlineExceeded`` when the host's stderr has not ended
    ///   within `limit`; the host and the worker are killed first.
    static func killHostOnceWorkerWaits<Seen: Sendable>(
        _ arguments: [String], environment: [String: String] = [:], within limit: Duration,
        inspect: @escaping @Sendable (Int32) -> Seen
    ) async throws -> (seen: (worker: Int32, found: Seen)?, stderr: String) {
        let host = Process()
        host.executableURL = CommandRunner.buildDirectory.appending(path: "host")
        host.arguments = arguments
        host.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
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
            let seen = try await Deadline.within(limit, "the end of the host's stderr") { () -> (worker: Int32, found: Seen)? in
                var text = ""
                var seen: (worker: Int32, found: Seen)?
                for await chunk in chunks {
                    text += String(decoding: chunk, as: UTF8.self)
                    shown.withLock { $0 = text }
                    // The worker prints this from inside the plugin's fetch, and the host logs it as the plugin's.
                    guard seen == nil, text.contains("] warning: worker waiting\n"), let pid = Self.children(of: hostPID).first else { continue }
                    waiting.withLock { $0 = pid }
                    seen = (pid, inspect(pid))
                    kill(hostPID, SIGKILL)
                }
                return seen
            }
            return (seen, shown.withLock { $0 })
        } catch {
            // Leave nothing running: the host, and a worker that outlived it.
            kill(hostPID, SIGKILL)
            if let worker = waiting.withLock({ $0 }) { kill(worker, SIGKILL) }
            throw error
        }
    }
}
