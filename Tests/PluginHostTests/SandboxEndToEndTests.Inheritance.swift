import Foundation
import Testing

/// A worker inherits nothing it was not given: no environment variable of the
/// host's, no descriptor, no terminal. Each attack runs with the host's
/// defaults (the plugin in `--plugins-dir`, nobody vouching for it, so in a
/// sandboxed worker, with the registry cache on), as a user meets it.
extension SandboxEndToEndTests {
    /// `host fetch SYMBOLS --format json` with the host's defaults.
    /// - Returns: The rows by symbol, and the run's output.
    func fetchByDefault(
        _ symbols: [String], from fixtures: [FixturePlugins.Fixture], arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> (rows: [String: [String: String]], output: CommandRunner.Output) {
        let directory = try await FixturePlugins.directory(containing: fixtures)
        let output = try await CommandRunner.host(
            ["fetch"] + symbols + ["--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + arguments,
            environment: environment)
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        return (Dictionary(uniqueKeysWithValues: rows.compactMap { row in row["symbol"].map { ($0, row) } }), output)
    }

    @Test("The environment: a canary, a cloud secret and a proxy's password in the host's environment are not in the worker's, which holds only its allow list")
    func environmentIsAnAllowList() async throws {
        let token = Self.processToken()
        let fixture = Self.attack("ENVIRONMENT", ["TOKEN": token])
        let secrets = [
            "PATCHBAY_CANARY": token, "AWS_SECRET_ACCESS_KEY": token, "HTTPS_PROXY": "http://bob:\(token)@127.0.0.1:9/",
            "LANG": "C.UTF-8", "TZ": "UTC",
        ]

        let (rows, output) = try await fetchByDefault(["ENV"], from: [fixture], environment: secrets)

        // The locale and time zone pass; what the worker needs is written by the host; nothing else.
        #expect(rows["ENV"]?["error"] == "environment: LANG TZ SWIFT_BACKTRACE LIBDISPATCH_LOG PATCHBAY_WORKER_ADDRESS_SPACE; token unseen")
        #expect(output.status == 1)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test("Descriptors: a worker holds 0 to 5 only (stdin /dev/null, its output pipe, the frame pipes, the plugin), not one the host inherited")
    func descriptorsAreOnlyThoseGiven() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attack("DESCRIPTORS")])
        // The host inherits descriptor 9, open and not close-on-exec, as from a careless parent.
        let script = #"exec 9</etc/hostname; exec "$0" "$@""#
        func run(_ flags: [String]) async throws -> String? {
            let output = try await CommandRunner.run(
                URL(filePath: "/bin/sh"),
                ["-c", script, CommandRunner.buildDirectory.appending(path: "host").path, "fetch", "FDS", "--format", "json", "--plugins-dir", directory.path]
                    + flags, environment: ["HOST_NO_CACHE": "1"])
            return try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8)).first?["error"]
        }

        let isolated = try await run([])
        let inProcess = try await run(["--no-isolate"])

        #expect(isolated == "descriptors: 0 1 2 3 4 5; 0 a device, 1 a pipe, 2 a pipe")
        // In the host itself, descriptor 9 is there to be inherited.
        #expect(inProcess?.contains(" 9") == true, "\(inProcess ?? "nil")")
    }

    @Test(
        "Inherited files: ftruncate of stderr fails, and the file the host's stderr is redirected to keeps its bytes",
        arguments: [([String: String](), "ftruncate(2, 0): Operation not permitted"), (["HOST_SANDBOX_DISABLE": "seccomp"], "ftruncate(2, 0): Invalid argument")]
    )
    func stderrFileKeepsItsBytes(environment: [String: String], expected: String) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attack("FTRUNCATE")])
        let log = try TemporaryDirectory.make().appending(path: "host.log")
        try Data("kept\n".utf8).write(to: log)

        // As `host … 2>>host.log` runs it.
        let errors = try FileHandle(forWritingTo: log)
        try errors.seekToEnd()
        let run = try await HostProcess.run(
            ["fetch", "TRUNC", "--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase],
            environment: environment, standardError: errors)
        try errors.close()

        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(run.stdout.utf8))
        #expect(rows.first?["error"] == expected)
        #expect(run.status == 1)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.hasPrefix("kept\n"), "\(text)")
    }

    @Test(
        "The controlling terminal: open(/dev/tty) fails: no /dev in its own root, by Landlock without that, and by the worker's own session without both",
        arguments: [
            ([String: String](), "open(/dev/tty): No such file or directory"), (["HOST_SANDBOX_DISABLE": "namespaces"], "open(/dev/tty): Permission denied"),
            (["HOST_SANDBOX_DISABLE": "landlock,namespaces"], "open(/dev/tty): No such device or address"),
        ]
    )
    func noControllingTerminal(environment: [String: String], expected: String) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attack("OPEN_TTY")])
        // The host's stderr is a terminal of the test's, which is the host's controlling terminal.
        let terminal = try await PseudoTerminal()
        let run = try await HostProcess.run(
            ["fetch", "TTY", "--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase],
            environment: environment, standardError: terminal.follower, controllingTerminal: true)

        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(run.stdout.utf8))
        #expect(rows.first?["error"] == expected)
        #expect(run.status == 1)
    }

    @Test("The terminal: TIOCSTI pushes nothing into the input of the terminal the host's stderr is, and tcsetattr changes nothing", arguments: [
        ([String: String](), "ioctl(2, TIOCSTI): Operation not permitted", "tcsetattr(2): Operation not permitted"),
        (["HOST_SANDBOX_DISABLE": "seccomp"], "ioctl(2, TIOCSTI): Inappropriate ioctl for device", "tcsetattr(2): Inappropriate ioctl for device"),
    ])
    func terminalIsOutOfReach(environment: [String: String], tiocsti: String, tcsetattr: String) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attack("TIOCSTI"), Self.attack("TCSETATTR")])
        let terminal = try await PseudoTerminal()
        let before = try terminal.settings()

        let run = try await HostProcess.run(
            ["fetch", "TIOCSTI", "TCSET", "--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase],
            environment: environment, standardError: terminal.follower, controllingTerminal: true)

        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(run.stdout.utf8))
        #expect(rows.map { $0["error"] } == [tiocsti, tcsetattr])
        #expect(run.status == 1)
        // What a shell reading this terminal after the host would run: nothing.
        #expect(terminal.pendingInput() == "")
        #expect(try terminal.settings() == before)
    }
}

/// A pseudo-terminal the test owns: its follower is what a program sees as
/// a terminal; what is typed into it is read back from the follower.
struct PseudoTerminal: ~Copyable {
    let leader: Int32
    let follower: FileHandle
    private let followerDescriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    init() async throws {
        let (leader, follower) = try await KernelSandbox.openTerminal()
        self.leader = leader
        followerDescriptor = follower
        self.follower = FileHandle(fileDescriptor: follower, closeOnDealloc: false)
    }

    deinit {
        close(leader)
        close(followerDescriptor)
    }

    /// The terminal's settings, as `tcgetattr` reads them, in a comparable form.
    func settings() throws -> [UInt] {
        var settings = termios()
        guard tcgetattr(followerDescriptor, &settings) == 0 else { throw Failure(call: "tcgetattr", code: errno) }
        return [UInt(settings.c_iflag), UInt(settings.c_oflag), UInt(settings.c_cflag), UInt(settings.c_lflag)]
    }

    /// What is waiting in the terminal's input queue, without waiting for more.
    func pendingInput() -> String {
        var waiting: Int32 = 0
        _ = ioctl(followerDescriptor, UInt(FIONREAD), &waiting)
        guard waiting > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(waiting))
        let count = read(followerDescriptor, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
}

/// Runs `host` with its own defaults and a stderr of the test's choosing: a
/// file, or a terminal that can also be its controlling terminal.
enum HostProcess {
    struct Output {
        let status: Int32
        let stdout: String
    }

    static func run(
        _ arguments: [String], environment: [String: String], standardError: FileHandle, controllingTerminal: Bool = false
    ) async throws -> Output {
        let process = Process()
        // A terminal becomes the controlling terminal of a session leader that
        // opens it: util-linux's setsid does both before it runs the host.
        if controllingTerminal {
            process.executableURL = URL(filePath: "/usr/bin/setsid")
            process.arguments = ["--wait", "--ctty", CommandRunner.buildDirectory.appending(path: "host").path] + arguments
        } else {
            process.executableURL = CommandRunner.buildDirectory.appending(path: "host")
            process.arguments = arguments
        }
        var base = ["PATH": "/usr/bin:/bin", "XDG_DATA_HOME": try TemporaryDirectory.make().path, "XDG_CACHE_HOME": try TemporaryDirectory.make().path]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        process.environment = base.merging(environment) { $1 }
        process.currentDirectoryURL = try TemporaryDirectory.make()
        let out = Pipe()
        process.standardOutput = out
        process.standardError = standardError
        process.standardInput = controllingTerminal ? standardError : FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        let stdout = CapturedOutput()
        let finished: Void? = try await Deadline.race(CommandRunner.defaultDeadline) {
            await stdout.read(out.fileHandleForReading)
            for await _ in exited.stream {}
        }
        guard finished != nil else {
            kill(process.processIdentifier, SIGKILL)
            throw CommandRunner.DeadlineExceeded(command: arguments, deadline: CommandRunner.defaultDeadline, stdout: stdout.text, stderr: "")
        }
        return Output(status: process.terminationStatus, stdout: stdout.text)
    }
}
