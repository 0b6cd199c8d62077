import Foundation
import Testing

extension SandboxEndToEndTests {
    // NB: with the seccomp filter on, socket() fails first and Landlock's
    // network rule is never reached; turning the filter off tests that layer alone.
    @Test(
        "Network without the seccomp filter: Landlock alone refuses a TCP connection to loopback, and none arrives",
        .enabled("the running kernel lacks part of the sandbox") { await KernelSandbox.isFull() }
    )
    func connectRefusedByLandlockAlone() async throws {
        let listener = try LoopbackListener()
        defer { listener.close() }

        let (row, output) = try await fetch("CONNECT", from: Self.connect(port: listener.port), environment: ["HOST_SANDBOX_DISABLE": "seccomp"])

        #expect(row["error"] == "connect(127.0.0.1): Permission denied")
        #expect(output.status == 1)
        #expect(listener.pendingConnection() == false)
    }
}
