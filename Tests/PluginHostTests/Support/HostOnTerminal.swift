import Foundation
import Glibc
import Testing

// NB: glibc declares the pseudo-terminal calls only under _XOPEN_SOURCE, which the Glibc module is not built with.
@_silgen_name("posix_openpt") func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") func grantpt(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") func unlockpt(_ fd: Int32) -> Int32
@_silgen_name("ptsname") func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>?

/// Runs the built `host` with its stdout and stderr on one pseudo-terminal,
/// as a user at a shell sees it: what reaches a terminal, byte for byte
/// (but the terminal's own `\r\n` for each newline, read back as `\n`).
enum HostOnTerminal {
    /// What a run wrote to the terminal.
    struct Run {
        let status: Int32
        /// stdout and stderr as the terminal received them, interleaved.
        let screen: String
    }

    /// Runs `host arguments` in a clean environment (fresh XDG directories,
    /// as ``CommandRunner`` gives) plus `environment`.
    static func host(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        #expect(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0, "no pseudo-terminal: \(String(cString: strerror(errno)))")
        defer { close(master) }
        let name = try #require(ptsname(master))
        let terminal = open(String(cString: name), O_RDWR | O_NOCTTY)
        #expect(terminal >= 0, "cannot open \(String(cString: name)): \(String(cString: strerror(errno)))")

        let process = Process()
        process.executableURL = CommandRunner.buildDirectory.appending(path: "host")
        process.arguments = arguments
        let base = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": try TemporaryDirectory.make().path,
            "XDG_DATA_HOME": try TemporaryDirectory.make().path,
            "XDG_CACHE_HOME": try TemporaryDirectory.make().path,
            "XDG_CONFIG_HOME": try TemporaryDirectory.make().path,
        ]
        process.environment = base.merging(environment) { $1 }
        process.currentDirectoryURL = try TemporaryDirectory.make()
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        // Only the child holds the terminal now: reading it ends (EIO) when the child and its workers have closed it.
        close(terminal)

        let written = CapturedOutput()
        let done = Task {
            await written.read(FileHandle(fileDescriptor: master, closeOnDealloc: false))
            for await _ in exited.stream {}
        }
        guard try await Deadline.race(CommandRunner.defaultDeadline, { await done.value }) != nil else {
            process.terminate()
            throw CommandRunner.DeadlineExceeded(
                command: ["host"] + arguments, deadline: CommandRunner.defaultDeadline, stdout: written.text, stderr: "")
        }
        return Run(status: process.terminationStatus, screen: written.text.replacing("\r\n", with: "\n"))
    }
}
