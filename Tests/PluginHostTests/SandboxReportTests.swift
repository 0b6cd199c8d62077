import CWorkerSandbox
import Glibc
import Testing

@testable import PluginHost
import WorkerProtocol

/// How the C sandbox's report becomes what the host says: the level, each
/// missing layer with its reason, and the one-line summary `list-plugins`
/// shows. Kernels this machine does not run (no Landlock, old ABIs, no
/// seccomp) are described here, from the report the C code would write.
@Suite("The sandbox report")
struct SandboxReportTests {
    /// What `pb_sandbox_confine` reports on a kernel with Landlock ABI `abi`
    /// and seccomp, every requested layer that `abi` allows applied.
    static func report(abi: Int32, applied: UInt32? = nil, threads: UInt32 = 1) -> pb_sandbox_report {
        var report = pb_sandbox_report()
        report.struct_size = UInt32(MemoryLayout<pb_sandbox_report>.size)
        report.landlock_abi = abi
        report.seccomp_arch = 0xC000_003E
        report.threads = threads
        var layers = PB_SANDBOX_NO_NEW_PRIVS.rawValue | PB_SANDBOX_CAPABILITIES.rawValue | PB_SANDBOX_SECCOMP.rawValue | PB_SANDBOX_RLIMITS.rawValue
        if abi >= 1 { layers |= PB_SANDBOX_LANDLOCK_FS.rawValue }
        if abi >= 4 { layers |= PB_SANDBOX_LANDLOCK_NET.rawValue }
        if abi >= 6 { layers |= PB_SANDBOX_LANDLOCK_SCOPE.rawValue }
        report.applied = applied ?? layers
        return report
    }

    @Test("Every layer is full, with nothing missing")
    func full() {
        let sandbox = SandboxReport(Self.report(abi: 7), skipping: [])
        #expect(sandbox.level == .full)
        #expect(sandbox.missing.isEmpty)
        #expect(sandbox.summary == "full")
    }

    @Test("An older Landlock ABI is partial and says which rules need which ABI", arguments: [
        (Int32(3), ["Landlock network rules (the kernel's Landlock ABI is 3; they need 4)", "Landlock signal and socket scopes (the kernel's Landlock ABI is 3; they need 6)"]),
        (Int32(5), ["Landlock signal and socket scopes (the kernel's Landlock ABI is 5; they need 6)"]),
    ])
    func olderLandlock(abi: Int32, missing: [String]) {
        let sandbox = SandboxReport(Self.report(abi: abi), skipping: [])
        #expect(sandbox.level == .partial)
        #expect(sandbox.missing.map(\.description) == missing)
    }

    @Test("A kernel without Landlock, or with it switched off at boot, is partial with the reason")
    func noLandlock() {
        var absent = Self.report(abi: 0)
        absent.landlock_errno = ENOSYS
        #expect(SandboxReport(absent, skipping: []).missing.map(\.description) == ["Landlock (the kernel has no Landlock)"])
        #expect(SandboxReport(absent, skipping: []).summary == "partial (no Landlock)")

        var off = Self.report(abi: 0)
        off.landlock_errno = EOPNOTSUPP
        #expect(SandboxReport(off, skipping: []).missing.map(\.description) == [
            "Landlock (the kernel has Landlock but it is off; add landlock to the lsm= boot parameter)"
        ])
    }

    @Test("Threads that ran before the worker confined itself are outside Landlock, and the report says so")
    func threadsBeforeConfinement() {
        let sandbox = SandboxReport(Self.report(abi: 7, threads: 3), skipping: [])
        #expect(sandbox.level == .partial)
        #expect(sandbox.missing.map(\.description) == ["Landlock on every thread (3 threads were running when the worker confined itself)"])
    }

    @Test("No seccomp filter and no Landlock is no sandbox at all, whatever else applied")
    func none() {
        var report = Self.report(abi: 0, applied: PB_SANDBOX_NO_NEW_PRIVS.rawValue | PB_SANDBOX_CAPABILITIES.rawValue | PB_SANDBOX_RLIMITS.rawValue)
        report.landlock_errno = ENOSYS
        report.seccomp_errno = EINVAL
        let sandbox = SandboxReport(report, skipping: [])
        #expect(sandbox.level == .none)
        #expect(sandbox.missing.map(\.description) == [
            "Landlock (the kernel has no Landlock)", "seccomp filter (the kernel has no seccomp filters)",
        ])
        #expect(sandbox.summary == "none")
    }

    @Test("An architecture with no filter written for it claims no seccomp filter")
    func unsupportedArchitecture() {
        var report = Self.report(abi: 7, applied: Self.report(abi: 7).applied & ~PB_SANDBOX_SECCOMP.rawValue)
        report.seccomp_arch = 0
        report.seccomp_errno = ENOSYS
        #expect(SandboxReport(report, skipping: []).missing.map(\.description) == ["seccomp filter (none is written for this CPU architecture)"])
    }

    @Test("Layers turned off for a run are missing with that reason, and the refusal says to turn them back on")
    func turnedOff() {
        let applied = PB_SANDBOX_NO_NEW_PRIVS.rawValue | PB_SANDBOX_CAPABILITIES.rawValue | PB_SANDBOX_LANDLOCK_FS.rawValue
            | PB_SANDBOX_LANDLOCK_NET.rawValue | PB_SANDBOX_LANDLOCK_SCOPE.rawValue
        let sandbox = SandboxReport(Self.report(abi: 7, applied: applied), skipping: [.seccomp, .rlimits])
        #expect(sandbox.summary == "partial (no seccomp filter, no resource limits)")
        #expect(sandbox.refusal
            == "a full sandbox is required, and its worker got a partial one: no seccomp filter (turned off for this run); no resource limits (turned off for this run); turn the missing layers back on, or allow a partial sandbox")
    }

    @Test("HOST_SANDBOX_DISABLE names layers, separated by commas", arguments: [
        ("", SandboxLayers()), ("seccomp", SandboxLayers.seccomp), ("landlock, RLIMITS", SandboxLayers([.landlock, .rlimits])), ("all", SandboxLayers.all),
    ] as [(String, SandboxLayers)])
    func layerNames(text: String, layers: SandboxLayers) throws {
        #expect(try SandboxLayers(naming: text) == layers)
    }

    @Test("An unknown layer name is refused with the names there are")
    func unknownLayerName() {
        #expect(throws: SandboxLayers.NameError(name: "apparmor")) { try SandboxLayers(naming: "seccomp,apparmor") }
    }
}
