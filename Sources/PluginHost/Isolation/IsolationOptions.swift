/// How `--isolate` runs plugins: which executable serves as the worker, how
/// long a plugin may take to load, and whether a plugin may run in less than
/// a full sandbox.
///
/// ```swift
/// let loaded = await host.loadPlugins(isolation: IsolationOptions(loadTimeout: .seconds(5), requireFullSandbox: true))
/// ```
package struct IsolationOptions: Sendable {
    /// The executable started as a worker; it must run ``PluginWorker/run(skippingSandbox:naming:)``
    /// when given ``workerArguments``. By default the running `host` itself.
    package var workerExecutable: String
    /// The arguments that make ``workerExecutable`` a worker.
    package var workerArguments: [String]
    /// How long a worker may take to start and load its plugin before it is
    /// stopped and the plugin reported as hung.
    package var loadTimeout: Duration
    /// Refuse, before it is loaded, a plugin whose worker could not confine
    /// itself fully (see ``SandboxReport``). Otherwise such a plugin runs
    /// with the layers the kernel offers, and the run logs one warning.
    package var requireFullSandbox: Bool
    /// Sandbox layers turned off for this run, for tests and benchmarks:
    /// workers report them missing, as a kernel without them would.
    package var skippedLayers: SandboxLayers
    /// A listing shows each isolated plugin's sandbox: judge the sandbox
    /// this run can give (``SandboxProbe``) rather than repeat a scan's.
    package var reportsSandbox = false

    /// Whether a listing judges the sandbox now: to show it, or to refuse by it.
    var judgesSandbox: Bool { reportsSandbox || requireFullSandbox }

    /// Creates the options.
    /// - Parameters:
    ///   - workerExecutable: Defaults to `/proc/self/exe`, the running executable.
    ///   - workerArguments: Defaults to `["plugin-worker"]`, `host`'s hidden subcommand.
    ///   - loadTimeout: Defaults to 10 seconds.
    ///   - requireFullSandbox: Defaults to false.
    ///   - skippedLayers: Defaults to none.
    package init(
        workerExecutable: String = "/proc/self/exe", workerArguments: [String] = ["plugin-worker"], loadTimeout: Duration = .seconds(10),
        requireFullSandbox: Bool = false, skippedLayers: SandboxLayers = []
    ) {
        self.workerExecutable = workerExecutable
        self.workerArguments = workerArguments
        self.loadTimeout = loadTimeout
        self.requireFullSandbox = requireFullSandbox
        self.skippedLayers = skippedLayers
    }
}
