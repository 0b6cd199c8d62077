import Foundation
import Glibc
import Testing

/// The progress line a scan of many plugins shows on a terminal, and only
/// there: `host list-fetchers` with its stderr on a pseudo-terminal, as a
/// user at a shell sees it, and on a pipe, as a script does.
@Suite("Progress line while plugins are scanned")
struct ProgressLineTests {
    /// Six working plugins, one symbol each: more than the few a quick scan has.
    static let six = (1...6).map {
        FixturePlugins.Fixture(fileName: "libProgress\($0)Plugin.so", defines: ["-DFIXTURE_SYMBOL=\"PRG\($0)\"", "-DFIXTURE_NAME=\"Progress\($0)Plugin\""])
    }

    /// What a run with stderr on a terminal produced.
    struct TerminalRun {
        let status: Int32
        let stdout: String
        /// Everything written to the terminal, escape sequences included.
        let terminal: String
    }

    /// Runs the built `host` with a fresh cache (so every plugin is scanned)
    /// and its stderr on a pseudo-terminal; stdout stays a pipe.
    static func onTerminal(_ arguments: [String]) async throws -> TerminalRun {
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        #expect(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0, "no pseudo-terminal: \(String(cString: strerror(errno)))")
        defer { close(master) }
        let name = try #require(ptsname(master))
        let terminal = open(String(cString: name), O_RDWR | O_NOCTTY)
        #expect(terminal >= 0, "cannot open \(String(cString: name)): \(String(cString: strerror(errno)))")

        let process = Process()
        process.executableURL = CommandRunner.buildDirectory.appending(path: "host")
        process.arguments = arguments
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": try TemporaryDirectory.make().path,
            "XDG_DATA_HOME": try TemporaryDirectory.make().path,
            "XDG_CACHE_HOME": try TemporaryDirectory.make().path,
        ]
        process.currentDirectoryURL = try TemporaryDirectory.make()
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        // Only the child holds the terminal now: reading it ends (EIO) when the child and its workers have closed it.
        close(terminal)

        let stdout = CapturedOutput()
        let written = CapturedOutput()
        let done = Task {
            async let stdoutClosed: Void = stdout.read(out.fileHandleForReading)
            async let terminalClosed: Void = written.read(FileHandle(fileDescriptor: master, closeOnDealloc: false))
            _ = await (stdoutClosed, terminalClosed)
            for await _ in exited.stream {}
        }
        guard try await Deadline.race(CommandRunner.defaultDeadline, { await done.value }) != nil else {
            process.terminate()
            throw CommandRunner.DeadlineExceeded(
                command: ["host"] + arguments, deadline: CommandRunner.defaultDeadline, stdout: stdout.text, stderr: written.text)
        }
        return TerminalRun(status: process.terminationStatus, stdout: stdout.text, terminal: written.text)
    }

    @Test("On a terminal, a scan of six plugins shows one line, redrawn in place and erased at the end")
    func terminalShowsOneUpdatingLine() async throws {
        let plugins = try await FixturePlugins.directory(containing: Self.six)

        let run = try await Self.onTerminal(["list-fetchers", "--plugins-dir", plugins.path])

        #expect(run.status == 0, "\(run.terminal)")
        #expect(run.stdout.contains("PRG6"), "\(run.stdout)")
        // The first scan to start is always drawn; every draw starts by erasing the line it replaces.
        #expect(run.terminal.contains("\r\u{1B}[Kscanning plugins 0/6: libProgress1Plugin.so"), "\(run.terminal.debugDescription)")
        let lastDraw = try #require(run.terminal.ranges(of: "scanning plugins").last, "\(run.terminal.debugDescription)")
        #expect(run.terminal[lastDraw.upperBound...].contains("\r\u{1B}[K"), "the line is not erased at the end: \(run.terminal.debugDescription)")
        // Drawn in place: no draw ends its line.
        #expect(!run.terminal.contains(/scanning plugins [^\r\u{1B}]*\n/), "\(run.terminal.debugDescription)")
    }

    @Test("A file name the progress line shows is escaped: a plugin's name cannot retitle or clear the terminal")
    func fileNameIsEscaped() async throws {
        // Sorted first (ESC is below every letter), so the first draw shows it.
        let hostile = FixturePlugins.Fixture(
            fileName: "lib\u{1B}]0;pwned\u{07}Plugin.so", defines: ["-DFIXTURE_SYMBOL=\"PRG0\"", "-DFIXTURE_NAME=\"Progress0Plugin\""])
        let plugins = try await FixturePlugins.directory(containing: [hostile] + Self.six)

        let run = try await Self.onTerminal(["list-fetchers", "--plugins-dir", plugins.path])

        #expect(run.status == 0, "\(run.terminal)")
        #expect(run.terminal.contains(#"scanning plugins 0/7: lib\u{1B}]0;pwned\u{7}Plugin.so"#), "\(run.terminal.debugDescription)")
        #expect(!run.terminal.contains("\u{1B}]0;pwned"), "\(run.terminal.debugDescription)")
    }

    @Test("-q silences the line, even on a terminal")
    func quietSilencesIt() async throws {
        let plugins = try await FixturePlugins.directory(containing: Self.six)

        let run = try await Self.onTerminal(["list-fetchers", "-q", "--plugins-dir", plugins.path])

        #expect(run.status == 0, "\(run.terminal)")
        #expect(run.stdout.contains("PRG6"))
        #expect(!run.terminal.contains("scanning plugins"), "\(run.terminal.debugDescription)")
    }

    @Test("A scan of a few plugins is quick: no line")
    func fewPluginsShowNothing() async throws {
        let plugins = try await FixturePlugins.directory(containing: Array(Self.six.prefix(4)))

        let run = try await Self.onTerminal(["list-fetchers", "--plugins-dir", plugins.path])

        #expect(run.status == 0, "\(run.terminal)")
        #expect(run.stdout.contains("PRG4"))
        #expect(!run.terminal.contains("scanning plugins"), "\(run.terminal.debugDescription)")
    }

    @Test("When stderr is not a terminal, nothing is shown")
    func pipeShowsNothing() async throws {
        let plugins = try await FixturePlugins.directory(containing: Self.six)

        let output = try await CommandRunner.host(["list-fetchers", "--plugins-dir", plugins.path])

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("PRG6"))
        #expect(!output.stderr.contains("scanning plugins"), "\(output.stderr.debugDescription)")
    }
}
