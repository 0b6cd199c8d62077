import Foundation
import Testing

/// Single rules of the sandbox, each tested where no other layer hides it:
/// a rule another layer also enforces is tested with that layer turned off
/// (`HOST_SANDBOX_DISABLE`), so that dropping the rule alone fails a test.
extension SandboxEndToEndTests {
    @Test(
        "Filesystem: a file that exists outside the worker's reach cannot be written, and keeps its bytes",
        .enabled("the running kernel has no Landlock") { await KernelSandbox.has(.landlock) }
    )
    func overwriteExistingFile() async throws {
        let target = try TemporaryDirectory.make().appending(path: "the-users-file")
        try Data("mine\n".utf8).write(to: target)

        // NB: the worker's own root hides the file; without it, Landlock alone must refuse.
        let (row, output) = try await fetch("OVERWR", from: Self.attack("OVERWRITE", ["FILE": target.path]), environment: ["HOST_SANDBOX_DISABLE": "namespaces"])

        #expect(row["error"] == "open(O_WRONLY) and write: Permission denied")
        #expect(output.status == 1)
        #expect(try String(contentsOf: target, encoding: .utf8) == "mine\n")
    }

    // NB: the seccomp filter refuses mknod before Landlock sees it; without the filter, Landlock alone must.
    @Test(
        "Filesystem without the seccomp filter: Landlock alone refuses to make a file with mknod, and none appears",
        .enabled("the running kernel lacks part of the sandbox") { await KernelSandbox.isFull() }
    )
    func mknodRefusedByLandlockAlone() async throws {
        let target = try TemporaryDirectory.make().appending(path: "made-by-a-plugin")

        let (row, output) = try await fetch("MKNOD", from: Self.attack("MKNOD", ["FILE": target.path]), environment: ["HOST_SANDBOX_DISABLE": "seccomp,namespaces"])

        #expect(row["error"] == "mknod(S_IFREG): Permission denied")
        #expect(output.status == 1)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test(
        "Processes: a plugin can neither take back its parent-death signal nor signal a thread of another process",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) },
        arguments: [
            ("PDEATHSIG", "PDEATH", "prctl(PR_SET_PDEATHSIG, 0): Operation not permitted"),
            ("TGKILL", "TGKILL", "tgkill(parent, parent, 0): Operation not permitted"),
        ])
    func processRules(attack: String, symbol: String, expected: String) async throws {
        let (row, output) = try await fetch(symbol, from: Self.attack(attack))
        #expect(row["error"] == expected)
        #expect(output.status == 1)
    }

    // NB: the seccomp filter refuses a signal to another process, and in a PID
    // namespace of its own the worker cannot name the host; without both,
    // Landlock's signal scope alone must refuse it.
    @Test(
        "Signals without the seccomp filter and the namespaces: Landlock's scope alone refuses a signal to the host",
        .enabled("the running kernel has no Landlock scopes") { await KernelSandbox.has(.landlockScopes) }
    )
    func signalRefusedByLandlockAlone() async throws {
        let (row, output) = try await fetch("SIGNAL", from: Self.attack("SIGNAL_HOST"), environment: ["HOST_SANDBOX_DISABLE": "seccomp,namespaces"])
        #expect(row["error"] == "kill(host, 0): Operation not permitted")
        #expect(output.status == 1)
    }
}
