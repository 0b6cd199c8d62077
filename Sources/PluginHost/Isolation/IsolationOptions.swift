import WorkerProtocol

/// How workers run plugins: which executable serves as the worker, how long
/// a plugin may take to load, and whether a plugin may run in less than a
/// full sandbox.
///
/// ```swift
/// let options = IsolationOptions(loadTimeout: .seconds(5), requireFullSandbox: true)
/// ```
package struct IsolationOptions: Sendable {
    /// The worker executable (`WorkerStartup`, in WorkerProtocol); nil for the one beside
    /// the running executable or in its `../lib/patchbay/`.
    package var workerExecutable: String?
    /// How long a worker may take to start and load its plugin before it is
    /// stopped and the plugin reported as hung.
    package var loadTimeout: Duration
    /// Refuse, before it is loaded, a plugin whose worker could not confine
    /// itself fully (see `SandboxReport` in WorkerProtocol). Otherwise such a plugin runs
    /// with the layers the kernel offers, and the run logs one warning.
    package var requireFullSandbox: Bool
    /// Sandbox layers the workers do not apply, to measure what each costs or
    /// to see how the host behaves without one; they report them missing.
    package var skippedSandboxLayers: SandboxLayers
    /// A listing shows each isolated plugin's sandbox: judge the sandbox
    /// this run can give (`SandboxProbe`) rather than repeat a scan's.
    package var reportsSandbox = false
    /// What all of the run's workers may take together: each worker's
    /// limit, and how many workers of strangers run at once.
    package let memoryBudget: MemoryBudget
    /// The run's places for workers of plugins nobody vouched for, shared by every copy of these options.
    let slots: WorkerSlots

    /// Whether a listing judges the sandbox now: to show it, or to refuse by it.
    var judgesSandbox: Bool { reportsSandbox || requireFullSandbox }

    /// Creates the options.
    /// - Parameters:
    ///   - workerExecutable: Defaults to nil, the `patchbay-worker` the host finds.
    ///   - loadTimeout: Defaults to 10 seconds.
    ///   - requireFullSandbox: Defaults to false.
    ///   - skippedSandboxLayers: Defaults to none.
    ///   - memoryBudget: Defaults to ``MemoryBudget/standard``, 2 GiB.
    package init(
        workerExecutable: String? = nil, loadTimeout: Duration = .seconds(10), requireFullSandbox: Bool = false,
        skippedSandboxLayers: SandboxLayers = [], memoryBudget: MemoryBudget = .standard
    ) {
        self.memoryBudget = memoryBudget
        slots = WorkerSlots(budget: memoryBudget)
        self.workerExecutable = workerExecutable
        self.loadTimeout = loadTimeout
        self.requireFullSandbox = requireFullSandbox
        self.skippedSandboxLayers = skippedSandboxLayers
    }

    /// The worker executable to start, opened, or why there is none. One
    /// given in ``workerExecutable`` is taken as it is, unchecked.
    var executable: Result<WorkerFile, WorkerError> {
        guard let workerExecutable else { return WorkerExecutable.located }
        guard let file = WorkerFile.open(WorkerRoot.realPath(workerExecutable)) else {
            return .failure(WorkerError(.loading, .missingExecutable(searched: [workerExecutable])))
        }
        return .success(file)
    }
}
