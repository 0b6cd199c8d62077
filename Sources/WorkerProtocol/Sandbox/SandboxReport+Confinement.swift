import CWorkerSandbox
import PluginBoundary

import Glibc

extension SandboxReport {
    /// Reads the C report of `pb_sandbox_confine` (a worker's) or
    /// `pb_sandbox_probe` (the host's guess): what is missing, and why, in
    /// the user's terms. One wording for both, so that what a listing
    /// predicts reads as what a worker reports.
    package init(_ report: pb_sandbox_report, skipping skipped: SandboxLayers) {
        func applied(_ layer: pb_sandbox_layer) -> Bool { report.applied & layer.rawValue != 0 }
        func reason(_ code: Int32) -> String { SystemError(operation: "confine the worker", errno: code).reason }
        let off = Gap.turnedOff
        var gaps: [Gap] = []

        if !applied(PB_SANDBOX_NO_NEW_PRIVS) {
            gaps.append(Gap(layer: "no_new_privs", reason: reason(report.other_errno)))
        }
        if skipped.contains(.landlock) {
            gaps.append(Gap(layer: "Landlock", reason: off))
        } else if report.landlock_abi == 0 {
            let why = report.landlock_errno == EOPNOTSUPP ? "the kernel has Landlock but it is off; add landlock to the lsm= boot parameter" : "the kernel has no Landlock"
            gaps.append(Gap(layer: "Landlock", reason: why))
        } else if !applied(PB_SANDBOX_LANDLOCK_FS) {
            gaps.append(Gap(layer: "Landlock", reason: reason(report.landlock_errno)))
        } else {
            let abi = report.landlock_abi
            if !applied(PB_SANDBOX_LANDLOCK_NET) {
                gaps.append(Gap(layer: "Landlock network rules", reason: "the kernel's Landlock ABI is \(abi); they need 4"))
            }
            if !applied(PB_SANDBOX_LANDLOCK_SCOPE) {
                gaps.append(Gap(layer: "Landlock signal and socket scopes", reason: "the kernel's Landlock ABI is \(abi); they need 6"))
            }
            if report.threads > 1 {
                gaps.append(Gap(layer: "Landlock on every thread", reason: "\(report.threads) threads were running when the worker confined itself"))
            }
        }
        if !applied(PB_SANDBOX_CAPABILITIES) {
            gaps.append(Gap(layer: "capability drop", reason: reason(report.other_errno)))
        }
        if skipped.contains(.seccomp) {
            gaps.append(Gap(layer: "seccomp filter", reason: off))
        } else if report.seccomp_arch == 0 {
            gaps.append(Gap(layer: "seccomp filter", reason: "none is written for this CPU architecture"))
        } else if !applied(PB_SANDBOX_SECCOMP) {
            let why = report.seccomp_errno == EINVAL ? "the kernel has no seccomp filters" : reason(report.seccomp_errno)
            gaps.append(Gap(layer: "seccomp filter", reason: why))
        }
        if skipped.contains(.rlimits) {
            gaps.append(Gap(layer: "resource limits", reason: off))
        } else if !applied(PB_SANDBOX_RLIMITS) {
            gaps.append(Gap(layer: "resource limits", reason: reason(report.other_errno)))
        }

        let level: Level =
            if gaps.isEmpty { .full }
            else if !applied(PB_SANDBOX_LANDLOCK_FS) && !applied(PB_SANDBOX_SECCOMP) { .none }
            else { .partial }
        func microseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1000 }
        self.init(
            level: level, missing: gaps,
            cost: Cost(
                landlockMicroseconds: microseconds(report.landlock_ns), seccompMicroseconds: microseconds(report.seccomp_ns),
                rlimitsMicroseconds: microseconds(report.rlimits_ns), totalMicroseconds: microseconds(report.total_ns)
            )
        )
    }
}
