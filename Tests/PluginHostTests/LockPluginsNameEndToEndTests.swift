import Foundation
import Testing

/// `host lock-plugins` writes a line per plugin, by its path: a path holding
/// a line break, another control character or a backslash would be a line
/// that vouches for nothing, or for another name. Such a plugin is refused
/// in one line, as `host trust` refuses it, and nothing of it is written.
@Suite("Lock-plugins and names a line cannot hold, end to end", .timeLimit(.minutes(10)))
struct LockPluginsNameEndToEndTests {
    /// File names, each with what the refusal says it holds and how the terminal shows it.
    static let names: [(file: String, holds: String, shown: String)] = [
        ("a\r\nb.so", "a line break", #"a\r\nb.so"#),
        ("a\nb.so", "a line break", #"a\nb.so"#),
        ("esc\u{1B}[31m.so", "a control character", #"esc\u{1B}[31m.so"#),
        ("tab\t.so", "a control character", #"tab\t.so"#),
        ("back\\slash.so", "a backslash", #"back\slash.so"#),
    ]

    /// A plugins directory with the C fixture, and a copy of it under `name`.
    private func directory(copyNamed name: String) async throws -> URL {
        let directory = try await FixturePlugins.directory(with: [.cPlugin])
        try FileManager.default.copyItem(
            at: directory.appending(path: FixturePlugins.Variant.cPlugin.fileName), to: directory.appending(path: name))
        return directory
    }

    @Test("Into the trust store: refused in one line, the other plugin vouched for", arguments: 0..<names.count)
    func trustStore(index: Int) async throws {
        let name = Self.names[index]
        let directory = try await directory(copyNamed: name.file)
        let config = try TemporaryDirectory.make()
        let store = config.appending(path: "patchbay/trusted-plugins").path

        let output = try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path], environment: ["XDG_CONFIG_HOME": config.path])

        #expect(output.status == 1)
        #expect(output.stderrLines == [
            "host: warning: not locking \(directory.path)/\(name.shown): its name holds \(name.holds), which a line of the trust store cannot hold; rename the file without it, then lock it"
        ])
        let written = try String(contentsOfFile: store, encoding: .utf8)
        let lines = written.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == 1 && lines.first?.hasSuffix("  \(directory.path)/libCDogecoinPlugin.so") == true, "\(written)")
    }

    @Test("Into an --allowlist file: refused in one line, the other plugin listed", arguments: 0..<names.count)
    func allowlist(index: Int) async throws {
        let name = Self.names[index]
        let directory = try await directory(copyNamed: name.file)
        let allowlist = try TemporaryDirectory.make().appending(path: "allowed.lock").path

        let output = try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path, "--allowlist", allowlist])

        #expect(output.status == 1)
        #expect(output.stderrLines == [
            "host: warning: not locking \(directory.path)/\(name.shown): its name holds \(name.holds), which a line of a lock file cannot hold; rename the file without it, then lock it"
        ])
        let written = try String(contentsOfFile: allowlist, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 1 && written.hasSuffix("  \(directory.path)/libCDogecoinPlugin.so\n"), "\(written)")
    }

    @Test("host trust refuses the same names with the same words", arguments: 0..<names.count)
    func trustAgrees(index: Int) async throws {
        let name = Self.names[index]
        let directory = try await directory(copyNamed: name.file)

        let output = try await CommandRunner.host(["trust", directory.appending(path: name.file).path])

        #expect(output.status == 1)
        #expect(output.stderrLines == [
            "host: error: not trusting \(directory.path)/\(name.shown): its name holds \(name.holds), which a line of the trust store cannot hold; rename the file without it, then trust it"
        ])
    }
}
