/// How `--isolate` runs plugins: which executable serves as the worker, and
/// how long a plugin may take to load.
///
/// ```swift
/// let loaded = await host.loadPlugins(isolation: IsolationOptions(loadTimeout: .seconds(5)))
/// ```
public struct IsolationOptions: Sendable {
    /// The executable started as a worker; it must run ``PluginWorker/run()``
    /// when given ``workerArguments``. By default the running `host` itself.
    public var workerExecutable: String
    /// The arguments that make ``workerExecutable`` a worker.
    public var workerArguments: [String]
    /// How long a worker may take to start and load its plugin before it is
    /// stopped and the plugin reported as hung.
    public var loadTimeout: Duration

    /// Creates the options.
    /// - Parameters:
    ///   - workerExecutable: Defaults to `/proc/self/exe`, the running executable.
    ///   - workerArguments: Defaults to `["plugin-worker"]`, `host`'s hidden subcommand.
    ///   - loadTimeout: Defaults to 10 seconds.
    public init(workerExecutable: String = "/proc/self/exe", workerArguments: [String] = ["plugin-worker"], loadTimeout: Duration = .seconds(10)) {
        self.workerExecutable = workerExecutable
        self.workerArguments = workerArguments
        self.loadTimeout = loadTimeout
    }
}
