import ArgumentParser
import Foundation
@testable import HostCommand
import PluginABI
import Testing

/// `host --help` and each subcommand's `--help`, as the built executable
/// prints them, against the files in `Snapshots/`.
///
/// After changing a command, an option or its help, regenerate them all and
/// review the diff:
///
///     UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests
@Suite("Help output snapshots")
struct HelpSnapshotTests {
    /// The root command, then every subcommand, hidden ones included, as `HostCLI` lists them.
    static let commands: [[String]] = [[]] + HostCLI.configuration.subcommands.map { [$0._commandName] }

    static let directory = FixturePlugins.repositoryRoot.appending(path: "Tests/PluginHostTests/Snapshots")

    /// The command to regenerate every snapshot, as each failure shows it.
    static let regenerate = "UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests"

    static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" }

    /// `host.txt` for the root command, `host-fetch.txt` for `host fetch`.
    static func snapshotFile(for command: [String]) -> URL {
        directory.appending(path: (["host"] + command).joined(separator: "-") + ".txt")
    }

    /// What `host … --help` prints at 80 columns, the width ArgumentParser
    /// falls back to, whatever the terminal running the tests.
    static func help(_ command: [String]) async throws -> String {
        let output = try await CommandRunner.host(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        return output.stdout
    }

    @Test("Help matches its snapshot", arguments: commands)
    func helpMatchesSnapshot(command: [String]) async throws {
        let actual = try await Self.help(command)
        let file = Self.snapshotFile(for: command)
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("No snapshot \(file.lastPathComponent) for `host \((command + ["--help"]).joined(separator: " "))`; write it with \(Self.regenerate)")
            return
        }
        // NB: not `#expect(actual == expected)`, which would print both texts whole; the diff is what helps.
        if actual != expected {
            Issue.record(
                """
                `host \((command + ["--help"]).joined(separator: " "))` differs from \(file.lastPathComponent) \
                (- snapshot, + now):
                \(SnapshotDiff(expected: expected, actual: actual))
                If the change is intended, regenerate the snapshots with \(Self.regenerate) and review the diff.
                """)
        }
    }

    @Test("Every snapshot belongs to a command, so a removed or renamed command leaves none behind")
    func noStaleSnapshots() throws {
        let expected = Set(Self.commands.map { Self.snapshotFile(for: $0).lastPathComponent })
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".txt") }
        let stale = present.filter { !expected.contains($0) }.sorted()
        if Self.updating {
            for name in stale { try FileManager.default.removeItem(at: Self.directory.appending(path: name)) }
            return
        }
        #expect(stale.isEmpty, "Snapshots for no command: \(stale.joined(separator: ", ")); remove them with \(Self.regenerate)")
    }

    @Test("Help names no path of this machine, so the snapshots hold on any checkout")
    func helpIsMachineIndependent() async throws {
        let root = FixturePlugins.repositoryRoot.standardized.path
        let home = ProcessInfo.processInfo.environment["HOME"] ?? root
        for command in Self.commands {
            let help = try await Self.help(command)
            #expect(!help.contains(root) && !help.contains(home), "`host \(command.joined(separator: " ")) --help` names a local path:\n\(help)")
        }
    }

    @Test("--version prints the version, the plugin ABI version, the Swift version and the commit, and exits 0")
    func version() async throws {
        let output = try await CommandRunner.host(["--version"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(output.stdout)")
        #expect(lines[0] == "host \(PatchbayVersion.current)")
        #expect(PatchbayVersion.current.split(separator: ".").count == 3, "not a semantic version: \(PatchbayVersion.current)")
        #expect(lines[1] == "plugin ABI version \(PB_PLUGIN_ABI_VERSION)")
        #expect(lines[2].wholeMatch(of: /Swift 6\.[0-9]+(\.[0-9]+)?/) != nil, "\(lines[2])")
        // The commit this checkout is at, as the build recorded it.
        let head = try await CommandRunner.run(URL(filePath: "/usr/bin/git"), ["-C", FixturePlugins.repositoryRoot.path, "rev-parse", "HEAD"])
        let commit = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(lines[3] == "commit \(commit)", "\(lines[3]) is not HEAD, \(commit)")
    }

    @Test("Every command's help lists its exit statuses", arguments: commands.dropFirst())
    func helpListsExitStatuses(command: [String]) async throws {
        let help = try await Self.help(command)
        #expect(help.contains("Exit status: 0 "), "`host \(command.joined(separator: " ")) --help` gives no exit status:\n\(help)")
    }
}

/// The lines that differ between a snapshot and what the command printed,
/// `-` for the snapshot's and `+` for the new, each with its line number.
struct SnapshotDiff: CustomStringConvertible {
    let expected: String
    let actual: String

    var description: String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let changes = new.difference(from: old).map { change in
            switch change {
            case .remove(let offset, let line, _): (offset, 0, "-\(offset + 1): \(line)")
            case .insert(let offset, let line, _): (offset, 1, "+\(offset + 1): \(line)")
            }
        }
        // Removals count in the snapshot and insertions in the new text; by
        // line, removals first, the order `diff` shows them in.
        return changes.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2).joined(separator: "\n")
    }
}
