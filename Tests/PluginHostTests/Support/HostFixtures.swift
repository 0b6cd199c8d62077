import Foundation

/// Shared pieces of the end-to-end tests for trust and isolation.
enum HostFixtures {
    /// The Coinbase-shaped fixture files shipped in the repository, as a `file://` base URL.
    static let coinbase = FixturePlugins.repositoryRoot.appending(path: "Fixtures/coinbase").absoluteString

    /// The table row `host fetch ETH` prints from those fixtures.
    static let ethRow = "ETH     USD       2718.281828459045235360287  EthereumPlugin"

    /// `chmod`, throwing on failure.
    static func chmod(_ path: String, _ mode: mode_t) throws {
        guard Glibc.chmod(path, mode) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM) }
    }

    /// The SHA-256 of a file, as `sha256sum` prints it.
    static func sha256sum(_ path: String) async throws -> String {
        let output = try await run("/usr/bin/sha256sum", [path])
        return String(output.prefix(64))
    }

    /// Writes `plugins.lock` in `directory`, pinning `files` (names in it)
    /// to their digests, as `sha256sum` would: a lock file that came with
    /// the plugins, or that a user wrote by hand.
    static func writeLock(for files: [String], in directory: URL) async throws {
        var text = ""
        for file in files.sorted() {
            text += "\(try await sha256sum(directory.appending(path: file).path))  \(file)\n"
        }
        let lock = directory.appending(path: "plugins.lock")
        try Data(text.utf8).write(to: lock)
        try chmod(lock.path, 0o644)
    }

    /// Writes a trust store at `path` vouching for `digests` (by absolute
    /// path), with the modes `host trust` gives it.
    static func writeTrustStore(_ digests: [String: String], at path: String) async throws {
        let directory = URL(filePath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let text = digests.sorted { $0.key < $1.key }.map { "\($0.value)  \($0.key)\n" }.joined()
        try Data(text.utf8).write(to: URL(filePath: path))
        try chmod(path, 0o600)
    }

    /// Runs a tool and returns its stdout; throws when it fails. Waits as
    /// ``CommandRunner`` does, without holding a thread of the cooperative
    /// pool, which every other test's timers and child processes need.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], in directory: URL? = nil) async throws -> String {
        let output = try await CommandRunner.run(URL(filePath: tool), arguments, environment: ProcessInfo.processInfo.environment, in: directory)
        guard output.status == 0 else { throw ToolFailed(tool: tool, status: output.status) }
        return output.stdout
    }

    struct ToolFailed: Error {
        let tool: String
        let status: Int32
    }

    /// Appends bytes to a file in place, as an attacker with write access
    /// would patch it; the ELF file stays loadable.
    static func tamper(_ path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(filePath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("tampered".utf8))
        try handle.close()
    }

    /// The `list-plugins --format json` rows, by file name.
    static func pluginRows(_ stdout: String) throws -> [String: [String: Any]] {
        let rows = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]] ?? []
        var byName: [String: [String: Any]] = [:]
        for row in rows {
            if let path = row["path"] as? String { byName[URL(filePath: path).lastPathComponent] = row }
        }
        return byName
    }
}

extension CommandRunner.Output {
    /// stderr split into lines, without the trailing empty one.
    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}
