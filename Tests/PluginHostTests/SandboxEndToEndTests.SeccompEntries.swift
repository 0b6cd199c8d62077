import Foundation
import Testing

/// Entries of the seccomp filter's table, each tested alone: with Landlock,
/// the limits and the namespaces switched off, so that nothing but the
/// filter stands between the call and the kernel, and an entry turned into
/// ALLOW fails its row.
extension SandboxEndToEndTests {
    static let seccompEntries: [(symbol: String, refused: String, allowed: String)] = [
        // clone3's flags are in memory, out of the filter's reach: it fails with ENOSYS, so glibc falls back to clone.
        ("CLONEFORK", "clone3(fork): Function not implemented", "clone3(fork): succeeded"),
        ("FCHMOD", "fchmod(1, its mode): Operation not permitted", "fchmod(1, its mode): succeeded"),
        ("MKNODAT", "mknodat(S_IFREG): Operation not permitted", "mknodat(S_IFREG): succeeded"),
    ]

    @Test(
        "System calls with only the seccomp filter on: clone3, fchmod and mknodat are refused by the filter alone, and with it off too they go through",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) },
        arguments: [("landlock,rlimits,namespaces", true), ("all", false)]
    )
    func seccompEntriesAlone(disabled: String, filtered: Bool) async throws {
        let outside = try TemporaryDirectory.make()

        let (rows, output) = try await fetchByDefault(
            Self.seccompEntries.map(\.symbol), from: [Self.singleRuleProbes(in: outside)], environment: ["HOST_SANDBOX_DISABLE": disabled])

        for entry in Self.seccompEntries {
            #expect(rows[entry.symbol]?["error"] == (filtered ? entry.refused : entry.allowed), "\(output.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: outside.appending(path: "MKNODAT").path) == !filtered)
        #expect(output.status == 1)
    }
}
