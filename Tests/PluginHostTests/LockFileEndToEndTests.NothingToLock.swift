import Foundation
import Testing

/// `lock-plugins --allowlist FILE` with nothing to lock: an empty
/// allowlist would refuse every plugin, so the file is neither made nor
/// replaced, and the run fails saying why.
extension LockFileEndToEndTests {
    @Test("lock-plugins --allowlist with no plugin to lock neither writes a new allowlist nor empties an old one")
    func nothingToLockWritesNothing() async throws {
        let empty = try TemporaryDirectory.make()
        let folder = try TemporaryDirectory.make()
        let fresh = folder.appending(path: "fresh.lock").path
        let kept = folder.appending(path: "kept.lock").path
        let earlier = try await CommandRunner.host(
            ["lock-plugins", "--plugins-dir", try await FixturePlugins.directory(with: [.cPlugin]).path, "--allowlist", kept])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        let before = try String(contentsOfFile: kept, encoding: .utf8)
        #expect(!before.isEmpty)

        for allowlist in [fresh, kept] {
            let output = try await CommandRunner.host(["lock-plugins", "--plugins-dir", empty.path, "--allowlist", allowlist])
            #expect(output.status == 1, "\(output.stderr)")
            #expect(output.stderrLines.last == "host: error: no plugin files were locked; put plugins in the directories --plugins-dir names, or fix the files listed above")
            #expect(output.stdout.isEmpty, "\(output.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh), "an empty allowlist was made")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == before, "the allowlist was replaced by one that refuses every plugin")
    }
}
