import Foundation
import Testing

/// The trust store's directory and the one above it, in every mode that
/// matters: only their owner may write them. A directory its group or others
/// may write, sticky or not, vouches for nothing: its plugin runs sandboxed.
extension VouchingEndToEndTests {
    /// The words a refusal uses for `mode`, and the chmod that fixes it; nil for a mode that passes.
    static func writableWords(_ mode: Int) -> (who: String, fix: String)? {
        let (group, world) = (mode & 0o020 != 0, mode & 0o002 != 0)
        guard group || world else { return nil }
        return (group && world ? "group- and world-writable" : world ? "world-writable" : "group-writable", group && world ? "go" : world ? "o" : "g")
    }

    @Test("The trust store's own directory: its owner's bits and read or search bits for others pass; a write bit for its group or others refuses the store", arguments: [
        0o700, 0o711, 0o750, 0o755, 0o720, 0o730, 0o760, 0o770, 0o702, 0o703, 0o706, 0o707, 0o722, 0o777, 0o1777, 0o1770,
    ])
    func trustStoreDirectoryModes(mode: Int) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let plugin = directory.appending(path: Self.tools.fileName).path
        let user = User()
        #expect(try await user.host(["trust", plugin]).status == 0)
        let storeDirectory = user.config.path + "/patchbay"
        try HostFixtures.chmod(storeDirectory, mode_t(mode))
        defer { try? HostFixtures.chmod(storeDirectory, 0o700) }

        let output = try await user.host(["fetch", "TOOL", "--plugins-dir", directory.path, "--api-base-url", try await Self.api()])

        #expect(output.unlabelled.stdout == Self.toolRow, "\(output.stderr)")
        if let (who, fix) = Self.writableWords(mode) {
            let shown = String(format: "%04o", mode)
            #expect(output.stderrLines == [
                "host: warning: your trust store vouches for nothing until it is fixed: refused (not writable by others): the trust store \(user.store) is in \(storeDirectory), which is \(who) (mode \(shown)), so other users could vouch for any plugin; run `chmod \(fix)-w \(storeDirectory)`"
            ])
            #expect(try !user.ranInProcess(), "a trust store in a directory of mode \(shown) moved a plugin in-process")
        } else {
            #expect(output.stderr.isEmpty, "\(output.stderr)")
            #expect(try user.ranInProcess(), "a trust store in a directory of mode \(String(mode, radix: 8)) vouched for nothing")
        }
    }

    @Test("The directory above the trust store's: a write bit for its group or others refuses the store, unless it is sticky like /tmp and the store's directory is the user's", arguments: [
        (0o755, true), (0o775, false), (0o757, false), (0o777, false), (0o1777, true), (0o1775, true),
    ])
    func trustStoreAncestorModes(mode: Int, vouches: Bool) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.tools])
        let plugin = directory.appending(path: Self.tools.fileName).path
        let user = User()
        #expect(try await user.host(["trust", plugin]).status == 0)
        try HostFixtures.chmod(user.config.path, mode_t(mode))
        defer { try? HostFixtures.chmod(user.config.path, 0o700) }

        let output = try await user.host(["fetch", "TOOL", "--plugins-dir", directory.path, "--api-base-url", try await Self.api()])

        #expect(output.unlabelled.stdout == Self.toolRow, "\(output.stderr)")
        #expect(try user.ranInProcess() == vouches, "\(output.stderr)")
        if vouches {
            #expect(output.stderr.isEmpty, "\(output.stderr)")
        } else {
            #expect(output.stderrLines.count == 1, "\(output.stderr)")
            #expect(output.stderrLines.first?.hasPrefix("host: warning: your trust store vouches for nothing until it is fixed: refused (not writable by others): ") == true, "\(output.stderr)")
            #expect(output.stderrLines.first?.contains(user.config.path) == true, "\(output.stderr)")
        }
    }
}
