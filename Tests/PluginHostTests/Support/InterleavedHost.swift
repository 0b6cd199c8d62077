import Foundation
import Synchronization

/// A `host` run whose stdout and stderr share one pipe, read line by line
/// while it runs: the order of the lines is the order the host wrote them,
/// so a test can tell that an answer came before a later log line, and act
/// (send a signal) on a line as it arrives.
final class InterleavedHost: Sendable {
    /// The host's process id, for a signal.
    let pid: Int32
    private let exited: AsyncStream<Void>
    /// Finished once the pipe closes and every line is recorded.
    private let drained: AsyncStream<Void>
    /// What the reader and the termination handler record, shared with them.
    private final class Record: Sendable {
        /// Every line so far, in the order written.
        let lines = Mutex<[String]>([])
        /// How it ended: its status, and whether a signal ended it.
        let ending = Mutex<(status: Int32, signalled: Bool)?>(nil)
    }

    private let record = Record()
    private let arrivals: AsyncStream<String>

    /// Starts `host` with `arguments` in `directory`, in ``CommandRunner/cleanEnvironment(merging:)``.
    init(_ arguments: [String], environment: [String: String], in directory: URL) throws {
        let process = Process()
        process.executableURL = CommandRunner.buildDirectory.appending(path: "host")
        process.arguments = arguments
        process.environment = try CommandRunner.cleanEnvironment(merging: environment)
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let (exited, exit) = AsyncStream<Void>.makeStream()
        let record = record
        process.terminationHandler = { process in
            record.ending.withLock { $0 = (process.terminationStatus, process.terminationReason == .uncaughtSignal) }
            exit.finish()
        }
        // Process.run closes this process's write end itself (through the
        // FileHandle; the read end closes with the Pipe once the reader ends).
        try process.run()
        self.pid = process.processIdentifier
        self.exited = exited
        let (arrivals, feed) = AsyncStream<String>.makeStream()
        self.arrivals = arrivals
        let (drained, drain) = AsyncStream<Void>.makeStream()
        self.drained = drained
        // Blocking reads on a Dispatch thread, never on the cooperative pool.
        DispatchQueue.global().async {
            var pending = Data()
            while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    record.lines.withLock { $0.append(line) }
                    feed.yield(line)
                }
            }
            feed.finish()
            drain.finish()
        }
    }

    /// Waits for the first line that passes `matches`, then returns every
    /// line written up to it, itself last; nil when the output ended first.
    /// Call it once per run: it takes the lines it passes over.
    /// - Parameter limit: A hang guard, far above what the run takes idle.
    func lines(through limit: Duration = .seconds(60), until matches: @escaping @Sendable (String) -> Bool) async throws -> [String]? {
        let arrivals = arrivals
        let found = try await Deadline.race(limit) {
            for await line in arrivals where matches(line) { return true }
            return false
        }
        guard found == true else { return nil }
        let lines = record.lines.withLock { $0 }
        return Array(lines[...lines.firstIndex(where: matches)!])
    }

    /// Waits for the run to end (a hang guard of `limit`, then SIGKILL), and
    /// returns every line it wrote, its status, and whether a signal ended it.
    func finish(within limit: Duration = .seconds(120)) async throws -> (lines: [String], status: Int32, signalled: Bool) {
        let exited = exited
        if try await Deadline.race(limit, { for await _ in exited {}; return true }) == nil {
            kill(pid, SIGKILL)
            for await _ in exited {}
        }
        // The reader has the last lines once the pipe closes, with the host's last worker.
        let drained = drained
        _ = try await Deadline.race(limit) { for await _ in drained {}; return true }
        let (status, signalled) = record.ending.withLock { $0 } ?? (-1, false)
        return (record.lines.withLock { $0 }, status, signalled)
    }
}
