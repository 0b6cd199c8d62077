import Foundation

/// Runs the built `host` executable the way a user would, and captures what
/// it prints.
struct CommandRunner {
    /// What a run produced.
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Where `swift build` put the binaries and plugins: beside the test bundle.
    static let buildDirectory: URL = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// Runs `host` with `arguments`.
    /// - Parameters:
    ///   - environment: Added to a clean environment (PATH and HOME only), so
    ///     the developer's HOST_* variables never leak into a test.
    ///   - directory: The working directory; a fresh empty one by default so
    ///     `./plugins` is absent.
    ///   - executable: Another copy of `host` to run.
    static func host(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, executable: URL? = nil
    ) async throws -> Output {
        let process = Process()
        process.executableURL = executable ?? buildDirectory.appending(path: "host")
        process.arguments = arguments
        var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        base["HOME"] = ProcessInfo.processInfo.environment["HOME"]
        process.environment = base.merging(environment) { $1 }
        process.currentDirectoryURL = try directory ?? TemporaryDirectory.make()
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice

        let finished = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in finished.continuation.finish() }
        try process.run()
        // Drain both pipes while the process runs, so a large output cannot
        // fill a pipe and stall it. The blocking reads run on Dispatch's
        // global queue, never on the cooperative pool: with two cores, two
        // parked reads would starve every other test's tasks and timers.
        async let stdout = out.fileHandleForReading.readAllOffPool()
        async let stderr = err.fileHandleForReading.readAllOffPool()
        let (stdoutData, stderrData) = await (stdout, stderr)
        for await _ in finished.stream {}
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self)
        )
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
    /// ``readAll()`` on a Dispatch thread, resuming the caller when done.
    func readAllOffPool() async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.readAll()) }
        }
    }

    /// Reads to end of file, retrying on EINTR (Foundation's
    /// `readDataToEndOfFile` traps on an interrupted read).
    func readAll() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }
}
