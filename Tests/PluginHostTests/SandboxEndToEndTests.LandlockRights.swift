import Foundation
import Testing

/// Each filesystem right Landlock handles, tested alone: with the seccomp
/// filter, the resource limits and the namespaces switched off, so that a
/// right left unhandled lets its call through and fails exactly one row.
/// Two rights have no probe, as no call a worker can make tells them apart:
/// REFER (a link or rename into another directory also needs a MAKE_* right
/// there, which a worker has nowhere) and IOCTL_DEV (no device can be opened
/// once Landlock applies, and /dev/null, fd 0, was opened before).
extension SandboxEndToEndTests {
    /// The probes of `single_rule_probes.c`, with `directory` as the place out of the worker's reach.
    static func singleRuleProbes(in directory: URL, marker: URL? = nil) -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(
            fileName: "single-rule-probes.so", source: "Tests/Fixtures/CPlugins/single_rule_probes.c",
            defines: ["-DPROBE_DIR=\"\(directory.path)\""] + (marker.map { ["-DPROBE_MARKER=\"\($0.path)\""] } ?? []))
    }

    /// Each right's probe: its symbol, the call it reports, and what the test puts at DIR/SYMBOL first.
    enum ProbeTarget: Sendable { case nothing, file, directory, executable }
    static let landlockRights: [(right: String, symbol: String, call: String, target: ProbeTarget)] = [
        ("EXECUTE", "EXECUTE", "execve", .executable),
        ("READ_FILE", "READFILE", "open(O_RDONLY)", .file),
        ("READ_DIR", "READDIR", "open(O_DIRECTORY)", .directory),
        ("WRITE_FILE", "WRITEFILE", "open(O_WRONLY)", .file),
        ("REMOVE_DIR", "REMOVEDIR", "rmdir", .directory),
        ("REMOVE_FILE", "REMOVEFILE", "unlink", .file),
        ("MAKE_CHAR", "MAKECHAR", "mknod(S_IFCHR)", .nothing),
        ("MAKE_DIR", "MAKEDIR", "mkdir", .nothing),
        ("MAKE_REG", "MAKEREG", "open(O_CREAT)", .nothing),
        ("MAKE_SOCK", "MAKESOCK", "bind(AF_UNIX)", .nothing),
        ("MAKE_FIFO", "MAKEFIFO", "mkfifo", .nothing),
        ("MAKE_BLOCK", "MAKEBLOCK", "mknod(S_IFBLK)", .nothing),
        ("MAKE_SYM", "MAKESYM", "symlink", .nothing),
        ("TRUNCATE", "TRUNCATE", "truncate", .file),
    ]

    /// What a directory holds: each entry's name, kind and bytes.
    static func snapshot(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
            let path = directory.appending(path: name).path
            var facts = stat()
            guard lstat(path, &facts) == 0 else { return "\(name) gone" }
            let bytes = facts.st_mode & S_IFMT == S_IFREG ? (FileManager.default.contents(atPath: path)?.count ?? -1) : 0
            return "\(name) mode \(String(facts.st_mode, radix: 8)) \(bytes) bytes"
        }
    }

    // NB: seccomp refuses some of these calls first (mknod of a device), and
    // the namespaces' user mapping and the file-size limit others; without
    // them, Landlock alone must, and a right it leaves unhandled fails its row.
    @Test(
        "Filesystem without the seccomp filter, the limits and the namespaces: Landlock alone refuses every right it handles, one probe each, and the directory keeps every byte",
        .enabled("the running kernel lacks Landlock ABI 6") { await KernelSandbox.has(.landlockScopes) }
    )
    func everyLandlockRightAlone() async throws {
        let outside = try TemporaryDirectory.make()
        for probe in Self.landlockRights {
            let target = outside.appending(path: probe.symbol)
            switch probe.target {
            case .nothing: break
            case .file: try Data("mine\n".utf8).write(to: target)
            case .directory: try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
            case .executable:
                try FileManager.default.copyItem(atPath: "/bin/true", toPath: target.path)
                chmod(target.path, 0o755)
            }
        }
        let before = try Self.snapshot(of: outside)

        let symbols = Self.landlockRights.map(\.symbol)
        let (rows, output) = try await fetchByDefault(
            symbols, from: [Self.singleRuleProbes(in: outside)], environment: ["HOST_SANDBOX_DISABLE": "seccomp,rlimits,namespaces"])

        for probe in Self.landlockRights {
            #expect(rows[probe.symbol]?["error"] == "\(probe.call): Permission denied", "LANDLOCK_ACCESS_FS_\(probe.right): \(output.stderr)")
        }
        #expect(output.status == 1)
        #expect(try Self.snapshot(of: outside) == before)
    }
}
