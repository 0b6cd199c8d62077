import CWorkerSandbox
import WorkerProtocol

/// The sandbox a worker started now would get, judged without starting one.
///
/// What a listing shows and `--require-sandbox` judges is the sandbox of
/// this run: the kernel asked now (its Landlock ABI, whether it has seccomp
/// filters, which namespaces it lets a child make) and the layers
/// `HOST_SANDBOX_DISABLE` turns off, never what a scan recorded in the
/// scan cache on another day or with other switches. A worker that then
/// gets less than this is still judged by its own report when it loads.
enum SandboxProbe {
    /// The sandbox a worker would get; waits for the spawn thread, which
    /// tries the namespaces, without blocking.
    static func report(skipping skipped: SandboxLayers) async -> SandboxReport {
        inWorker(skipping: skipped).adding(await WorkerNamespaces.shared.probe(skipping: skipped))
    }

    /// ``report(skipping:)`` on the calling thread, which must not be one of
    /// the cooperative pool's: trying the namespaces the first time takes
    /// about a millisecond.
    static func reportWaiting(skipping skipped: SandboxLayers) -> SandboxReport {
        inWorker(skipping: skipped).adding(WorkerNamespaces.shared.probeOnThisThread(skipping: skipped))
    }

    /// What a worker would do to itself: `pb_sandbox_probe`, worded as a worker's report.
    private static func inWorker(skipping skipped: SandboxLayers) -> SandboxReport {
        var report = pb_sandbox_report()
        report.struct_size = UInt32(MemoryLayout<pb_sandbox_report>.size)
        pb_sandbox_probe(skipped.confinementLayers, &report)
        let predicted = SandboxReport(report, skipping: skipped)
        return SandboxReport(level: predicted.level, missing: predicted.missing)
    }
}
