import Foundation
import Synchronization

/// Runs the built `host` executable the way a user would, and captures what
/// it prints.
///
/// Every run has a deadline: a child still running when it passes is killed,
/// with its process group, and the test fails with the command and what it
/// printed, instead of hanging the whole test run.
struct CommandRunner {
    /// What a run produced.
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
        /// From launch to exit, as seen from a Dispatch thread: what the run
        /// took, even when this test's own task resumed late because other
        /// tests kept the cooperative pool busy.
        var elapsed: Duration = .zero
    }

    /// A child that outlived its deadline and was killed.
    struct DeadlineExceeded: Error, CustomStringConvertible {
        /// The executable and its arguments.
        let command: [String]
        let deadline: Duration
        /// What it printed before it was killed.
        let stdout: String
        let stderr: String

        var description: String {
            """
            `\(command.joined(separator: " "))` was still running after \(deadline), so the test killed it and its process group: \
            a run's deadline is at least 10 times its slowest idle run, so this is a hang, not slowness (raise the deadline \
            if the run is merely slow on this machine). It printed:
            --- stdout ---
            \(stdout)
            --- stderr ---
            \(stderr)
            """
        }
    }

    /// Only a hang outlives it: the slowest `host` run the tests make takes a
    /// few seconds idle, and a whole suite run in parallel on two busy cores
    /// once took over a minute for one. A hang still fails, naming its test,
    /// within every suite's ten-minute `.timeLimit`.
    static let defaultDeadline: Duration = .seconds(300)

    /// Where `swift build` put the binaries and plugins: beside the test bundle.
    static let buildDirectory: URL = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// How a run loads plugins: what a user gets, or a path a test names.
    enum Mode: Sendable, Equatable {
        /// What a user gets: the registry cache on (in the run's own
        /// `XDG_CACHE_HOME`, unless the test passes one to share between
        /// runs), and plugins placed by trust: the bundled ones and those the
        /// user vouched for in-process, every other in a sandboxed worker.
        case userDefaults
        /// Every plugin loaded at start-up, in the host's process, with the
        /// registry cache off (`HOST_NO_CACHE=1 HOST_ISOLATE=0`), for a test
        /// of what only that path does; `reason` says what. A test that sets
        /// `HOST_ISOLATE`, `HOST_NO_CACHE` or `HOST_REQUIRE_SANDBOX` itself,
        /// or passes `--isolate`, keeps its own setting.
        case eagerInProcess(_ reason: String)
    }

    /// The placements an end-to-end test of an unvouched fixture plugin runs
    /// in: as a user runs it (nobody vouched for the fixture, so it runs in a
    /// sandboxed worker), and in-process (`--no-isolate`), where the host's
    /// own checks are all that stand between the plugin and the user.
    static let fixturePlacements: [[String]] = [[], ["--no-isolate"]]

    /// Runs `host` with `arguments`.
    /// - Parameters:
    ///   - environment: Added to a clean environment (PATH, HOME, an empty XDG_DATA_HOME,
    ///     XDG_CACHE_HOME and XDG_CONFIG_HOME), so the developer's HOST_* variables, plugins,
    ///     cache and trust store never leak into a test.
    ///   - directory: The working directory; a fresh empty one by default so
    ///     `./plugins` is absent.
    ///   - executable: Another copy of `host` to run.
    ///   - mode: ``Mode/userDefaults`` unless the test needs another path and says why.
    ///   - deadline: How long the run may take before it is killed.
    /// - Throws: ``DeadlineExceeded`` when the run outlives `deadline`.
    static func host(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, executable: URL? = nil,
        mode: Mode = .userDefaults, deadline: Duration = defaultDeadline
    ) async throws -> Output {
        var environment = environment
        if case .eagerInProcess = mode {
            if environment["HOST_ISOLATE"] == nil && environment["HOST_REQUIRE_SANDBOX"] == nil { environment["HOST_ISOLATE"] = "0" }
            if environment["HOST_NO_CACHE"] == nil { environment["HOST_NO_CACHE"] = "1" }
        }
        return try await run(
            executable ?? buildDirectory.appending(path: "host"), arguments, environment: environment, in: directory, deadline: deadline)
    }

    /// Runs any `executable` the way ``host(_:environment:in:executable:deadline:)`` runs `host`.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        deadline: Duration = defaultDeadline
    ) async throws -> Output {
        try await ChildProcessSlots.withSlot {
            try await runInSlot(executable, arguments, environment: environment, in: directory, deadline: deadline)
        }
    }

    private static func runInSlot(
        _ executable: URL, _ arguments: [String], environment: [String: String], in directory: URL?, deadline: Duration
    ) async throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = try cleanEnvironment(merging: environment)
        process.currentDirectoryURL = try directory ?? TemporaryDirectory.make()
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice

        let finished = AsyncStream<Void>.makeStream()
        let exitedAt = Mutex<ContinuousClock.Instant?>(nil)
        process.terminationHandler = { _ in
            exitedAt.withLock { $0 = .now }
            finished.continuation.finish()
        }
        let launchedAt = ContinuousClock.now
        try process.run()
        let pid = process.processIdentifier
        // Drain both pipes while the process runs, so a large output cannot
        // fill a pipe and stall it. The blocking reads run on Dispatch's
        // global queue, never on the cooperative pool: with two cores, two
        // parked reads would starve every other test's tasks and timers.
        // They keep what they read where a killed run can still show it.
        let stdout = CapturedOutput()
        let stderr = CapturedOutput()
        let done = Task {
            async let stdoutClosed: Void = stdout.read(out.fileHandleForReading)
            async let stderrClosed: Void = stderr.read(err.fileHandleForReading)
            _ = await (stdoutClosed, stderrClosed)
            for await _ in finished.stream {}
        }
        let completed: Void?
        do {
            completed = try await Deadline.race(deadline) { await done.value }
        } catch {
            // The test was cancelled (its time limit): leave nothing running.
            killGroup(of: pid)
            throw error
        }
        // A child that exited before its deadline is no hang, even when this
        // task resumed late because other tests kept the pool busy: its pipes
        // close with it (or with a grandchild, which gets a deadline again).
        var ended = completed != nil
        if !ended, let exited = exitedAt.withLock({ $0 }), exited - launchedAt <= deadline {
            ended = try await Deadline.race(deadline) { await done.value } != nil
        }
        guard ended else {
            killGroup(of: pid)
            // Its pipes close once the group is dead; a process that left the
            // group and still holds one must not hang the run either.
            _ = try? await Deadline.race(.seconds(2)) { await done.value }
            throw DeadlineExceeded(
                command: [executable.path] + arguments, deadline: deadline, stdout: stdout.text, stderr: stderr.text)
        }
        // NB: both reads are done: closed now, through their FileHandles
        // (Process.run closed the write ends the same way, so a second close
        // is a no-op). Left to deinit, every run kept its pipes, and the suite
        // reached the descriptor count where Foundation's Process.run crashes
        // (see ChildProcessSlots).
        for handle in [out.fileHandleForReading, out.fileHandleForWriting, err.fileHandleForReading, err.fileHandleForWriting] {
            try? handle.close()
        }
        let elapsed = (exitedAt.withLock { $0 } ?? .now) - launchedAt
        return Output(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text, elapsed: elapsed)
    }

    /// The environment a run starts from: PATH, HOME and empty XDG data,
    /// cache and configuration directories, then `environment` over them.
    static func cleanEnvironment(merging environment: [String: String]) throws -> [String: String] {
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        // The user's plugin directory is searched by default, and their trust
        // store vouches: keep the developer's own plugins and vouches out of the tests.
        base["XDG_DATA_HOME"] = try TemporaryDirectory.make().path
        base["XDG_CACHE_HOME"] = try TemporaryDirectory.make().path
        base["XDG_CONFIG_HOME"] = try TemporaryDirectory.make().path
        return base.merging(environment) { $1 }
    }

    /// SIGKILLs the child and everything in its process group.
    ///
    /// Foundation's `Process` starts each child as a process-group leader,
    /// so one signal reaches it and whatever it started in its group; a
    /// child that is not a leader, or has already gone, is signalled alone.
    /// The host's isolated workers have groups of their own, and die with
    /// the host through their parent-death signal.
    private static func killGroup(of pid: Int32) {
        if kill(-pid, SIGKILL) != 0 { _ = kill(pid, SIGKILL) }
    }
}

/// The bytes a child has written to one pipe so far.
///
/// A Dispatch thread appends while the child runs, so a run that is killed
/// can still show what it printed before end of file.
final class CapturedOutput: Sendable {
    private let bytes = Mutex(Data())

    /// Everything read so far, as UTF-8.
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }

    /// Reads `handle` to end of file on a Dispatch thread, resuming the
    /// caller when done.
    func read(_ handle: FileHandle) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                handle.readChunks { chunk in self.bytes.withLock { $0.append(contentsOf: chunk) } }
                continuation.resume()
            }
        }
    }
}

/// Fresh directories under one folder per test process.
///
/// Swift Testing has no hook that runs after the last test, so a run cannot
/// remove its own folder; instead each run removes the folders of runs whose
/// process has ended.
enum TemporaryDirectory {
    private static let prefix = "patchbay-tests-"

    private static let root = Result { () throws -> URL in
        let base = FileManager.default.temporaryDirectory
        removeLeftovers(in: base)
        let root = base.appending(path: "\(prefix)\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    static func make() throws -> URL {
        let url = try root.get().appending(path: UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func removeLeftovers(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            // A folder named after a process that still runs belongs to a
            // concurrent test run; anything else is left over.
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) == 0 || errno != ESRCH { continue }
            try? FileManager.default.removeItem(at: base.appending(path: name))
        }
    }
}

extension FileHandle {
    /// Reads to end of file, retrying on EINTR (Foundation's
    /// `readDataToEndOfFile` traps on an interrupted read).
    func readAll() -> Data {
        var data = Data()
        readChunks { data.append(contentsOf: $0) }
        return data
    }

    /// Reads to end of file, handing each chunk to `body` as it arrives.
    func readChunks(_ body: (UnsafeRawBufferPointer) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }
}
