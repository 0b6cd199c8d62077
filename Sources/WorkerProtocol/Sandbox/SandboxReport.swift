/// How tightly the kernel confines a plugin's code.
///
/// Under `--isolate` each worker starts in namespaces of its own (user, PID,
/// IPC, network, mount), then confines itself before it loads its plugin
/// (Landlock, a seccomp-bpf allow list, resource limits) and reports what it
/// got in its first frame, before any plugin code has run; the host adds
/// what it knows of the namespaces. A plugin loaded in-process runs with the
/// host's own rights, which is ``Level/none``.
///
/// ```swift
/// for report in loaded.reports where report.sandbox.level != .full {
///     print(report.path, report.sandbox.summary)   // "partial (no Landlock network rules)"
/// }
/// ```
package struct SandboxReport: Sendable, Equatable, Codable {
    /// How much of the sandbox took effect.
    package enum Level: String, Sendable, Codable {
        /// Every layer: the namespaces, Landlock (files, network, scopes), the seccomp filter and the resource limits.
        case full
        /// Some layers; ``SandboxReport/missing`` names the others.
        case partial
        /// No Landlock and no seccomp filter: in-process, or a kernel with neither.
        case none
    }

    /// A layer that did not take effect, and why.
    package struct Gap: Sendable, Equatable, Codable, CustomStringConvertible {
        /// The layer, e.g. "Landlock network rules".
        package let layer: String
        /// Why it is missing, e.g. "the kernel's Landlock ABI is 3; they need 4".
        package let reason: String

        /// A gap in `layer`, for `reason`.
        package init(layer: String, reason: String) {
            self.layer = layer
            self.reason = reason
        }

        /// "Landlock network rules (the kernel's Landlock ABI is 3; they need 4)".
        package var description: String { "\(layer) (\(reason))" }

        /// The reason of a layer turned off on purpose, for tests and benchmarks.
        package static let turnedOff = "turned off for this run"
    }

    /// How much of the sandbox took effect.
    package let level: Level
    /// The layers that did not take effect; empty for ``Level/full`` and for an in-process plugin.
    package let missing: [Gap]
    /// What confining the worker cost, for `--verbose` and the benchmarks; nil in-process.
    package let cost: Cost?

    /// What each layer cost the worker, in microseconds.
    package struct Cost: Sendable, Equatable, Codable, CustomStringConvertible {
        /// Building and enforcing the Landlock ruleset.
        package let landlockMicroseconds: Double
        /// Installing the seccomp filter.
        package let seccompMicroseconds: Double
        /// Setting the resource limits.
        package let rlimitsMicroseconds: Double
        /// The whole confinement.
        package let totalMicroseconds: Double

        /// What each layer cost.
        package init(landlockMicroseconds: Double, seccompMicroseconds: Double, rlimitsMicroseconds: Double, totalMicroseconds: Double) {
            self.landlockMicroseconds = landlockMicroseconds
            self.seccompMicroseconds = seccompMicroseconds
            self.rlimitsMicroseconds = rlimitsMicroseconds
            self.totalMicroseconds = totalMicroseconds
        }

        /// "182 µs (Landlock 41 µs, seccomp 120 µs, rlimits 9 µs)".
        package var description: String {
            // A decoded report can hold any Double: never trap converting one.
            func text(_ value: Double) -> String { value.isFinite && abs(value) < 1e15 ? "\(Int(value.rounded())) µs" : "\(value) µs" }
            return "\(text(totalMicroseconds)) (Landlock \(text(landlockMicroseconds)), seccomp \(text(seccompMicroseconds)), rlimits \(text(rlimitsMicroseconds)))"
        }
    }

    /// A report of `level`, missing `missing`.
    package init(level: Level, missing: [Gap], cost: Cost? = nil) {
        self.level = level
        self.missing = missing
        self.cost = cost
    }

    /// This report with more layers missing: the ones the host knows of
    /// (the namespaces it started the worker in), after the worker's own.
    /// A sandbox with neither Landlock nor the filter stays ``Level/none``.
    package func adding(_ gaps: [Gap]) -> SandboxReport {
        guard !gaps.isEmpty else { return self }
        return SandboxReport(level: level == .none ? .none : .partial, missing: missing + gaps, cost: cost)
    }

    /// No sandbox: an in-process plugin's, by design, and a plugin's whose
    /// worker never started.
    package static let unconfined = SandboxReport(level: .none, missing: [])

    /// "full", "none", or "partial (no Landlock network rules, no seccomp filter)".
    package var summary: String {
        guard level == .partial else { return level.rawValue }
        return "partial (" + missing.map { "no \($0.layer)" }.joined(separator: ", ") + ")"
    }

    /// Why a run that requires a full sandbox refuses this one, and what to do.
    package var refusal: String {
        let got = level == .none ? "none" : "a partial one"
        let gaps = missing.map { "no \($0)" }.joined(separator: "; ")
        let fix =
            missing.allSatisfy({ $0.reason == Gap.turnedOff })
            ? "turn the missing layers back on, or allow a partial sandbox"
            : "run it on a Linux kernel (6.14 or later) with Landlock ABI 6, seccomp filters and user namespaces, or allow a partial sandbox"
        return "a full sandbox is required, and its worker got \(got): \(gaps); \(fix)"
    }

    /// The one line a run logs when its workers get less than a full
    /// sandbox: it is the machine's kernel, the same for every worker.
    package var machineWarning: String {
        let gaps = missing.map { "no \($0)" }.joined(separator: "; ")
        return level == .none
            ? "isolated plugins run without a sandbox on this machine: \(gaps); they are still isolated from the host as processes"
            : "isolated plugins run in a partial sandbox on this machine: \(gaps); the other layers still apply"
    }
}
