import Foundation
import Testing

/// The seccomp filter's one ioctl rule, alone: a terminal query (TCGETS,
/// which glibc's isatty asks of stdout) is answered "not a terminal", and
/// every other request is refused. Landlock, the limits and the namespaces
/// are switched off, so that nothing but the filter stands between the call
/// and the kernel; the worker's stdout is a pipe, so the kernel's own answer
/// to TCGETS is ENOTTY too, and only the other request tells the two apart.
extension SandboxEndToEndTests {
    static let ioctlProbes: [(symbol: String, filtered: String, unfiltered: String)] = [
        ("TCGETS", "ioctl(1, TCGETS): Inappropriate ioctl for device", "ioctl(1, TCGETS): Inappropriate ioctl for device"),
        ("FIONREAD", "ioctl(1, FIONREAD): Operation not permitted", "ioctl(1, FIONREAD): succeeded"),
    ]

    @Test(
        "ioctl with only the seccomp filter on: TCGETS is answered ENOTTY by its request, FIONREAD is refused; with the filter off too, FIONREAD goes through",
        .enabled("the running kernel has no seccomp filters, or the host none for this CPU") { await KernelSandbox.has(.seccomp) },
        arguments: [("landlock,rlimits,namespaces", true), ("all", false)]
    )
    func ioctlRequestsAlone(disabled: String, filtered: Bool) async throws {
        let (rows, output) = try await fetchByDefault(
            Self.ioctlProbes.map(\.symbol), from: [Self.singleRuleProbes(in: try TemporaryDirectory.make())],
            // NB: a hang guard, not under test: the default 10 s is too little for a worker start at load 40.
            arguments: ["--timeout", "120"],
            environment: ["HOST_SANDBOX_DISABLE": disabled])

        for probe in Self.ioctlProbes {
            #expect(rows[probe.symbol]?["error"] == (filtered ? probe.filtered : probe.unfiltered), "\(output.stderr)")
        }
        #expect(output.status == 1)
    }
}
