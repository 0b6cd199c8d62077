import Foundation
import Testing

/// A `plugins.lock` that is there but not a usable lock file pins harder,
/// never less: every plugin beside it is refused, in one line each, and the
/// run neither hangs nor reads without bound.
@Suite("Lock files that are there but unusable", .timeLimit(.minutes(10)))
struct LockFileEdgeCaseTests {
    /// What is put where `plugins.lock` goes, and the reason every plugin
    /// beside it is then refused for (`LOCK` stands for the lock's path).
    enum Spoiled: String, CaseIterable, Sendable {
        case empty, danglingSymlink, directory, namedPipe, overOneMebibyte

        func make(at lock: String) throws {
            switch self {
            case .empty: try Data().write(to: URL(filePath: lock))
            case .danglingSymlink: try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: lock + ".gone")
            case .directory: try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
            case .namedPipe: #expect(mkfifo(lock, 0o644) == 0)
            case .overOneMebibyte:
                // Sparse: its size alone must refuse it, before it is read.
                #expect(FileManager.default.createFile(atPath: lock, contents: nil))
                #expect(truncate(lock, 2 << 20) == 0)
            }
        }

        var reason: String {
            switch self {
            case .empty:
                "refused (lock file): it is not listed in LOCK, which pins every plugin beside it; check the file, then add the line `sha256sum` prints for it to LOCK"
            case .danglingSymlink:
                "refused (lock file): the lock file LOCK cannot be read (No such file or directory); fix its permissions, or write it again with `sha256sum`"
            case .directory:
                "refused (regular file): the lock file LOCK is a directory, not a regular file; remove LOCK from the plugins directory"
            case .namedPipe:
                "refused (regular file): the lock file LOCK is a named pipe, not a regular file; remove LOCK from the plugins directory"
            case .overOneMebibyte:
                "refused (lock file): the lock file LOCK is larger than 1048576 bytes; write it again with `sha256sum`"
            }
        }
    }

    @Test("An empty, dangling, directory, named-pipe or oversized plugins.lock refuses every plugin beside it, in one line each", arguments: Spoiled.allCases)
    func spoiledLockRefusesEverything(spoiled: Spoiled) async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let lock = directory.appending(path: "plugins.lock").path
        try spoiled.make(at: lock)

        for flags in [["--no-cache"], []] {
            let output = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path] + flags)
            #expect(output.status == 0)
            #expect(output.stdout == "SYMBOL  NAME  PLUGIN  RANK  DEFAULT\n", "\(flags)")
            let reason = spoiled.reason.replacingOccurrences(of: "LOCK", with: lock)
            #expect(output.stderrLines == [
                "host: warning: skipping \(directory.path)/libCDogecoinPlugin.so: \(reason)",
                "host: warning: skipping \(directory.path)/libEthereumPlugin.so: \(reason)",
            ], "\(flags)")
        }
    }
}
