import ArgumentParser
import PluginHost

/// A command that loads the plugins, prints what it reports about them, and
/// is done: `list-fetchers`, `list-plugins` and `graph`.
///
/// From a warm scan cache, or loaded in-process without one, it never
/// waits, so it finishes on the main thread (``DirectlyRunnableCommand``);
/// when plugins must be scanned or run in workers, the rest runs as a task,
/// from what was already read, and stops the workers after printing.
protocol ReportCommand: DirectlyRunnableCommand {
    /// The options that find and load the plugins.
    var plugins: PluginOptions { get }

    /// Prints the report on the loaded plugins.
    func show(_ loaded: LoadedPlugins)

    /// Whether the report shows each plugin's sandbox, which is then judged for this run.
    static var reportsSandbox: Bool { get }
}

extension ReportCommand {
    static var reportsSandbox: Bool { false }

    func run() async throws {
        let loaded = try await plugins.loadPlugins(reportingSandbox: Self.reportsSandbox)
        show(loaded)
        await loaded.shutdown()
    }

    func runDirectly() throws -> (() async throws -> Void)? {
        switch try plugins.loadPluginsWithoutWaiting(reportingSandbox: Self.reportsSandbox) {
        case .loaded(let loaded):
            show(loaded)
            // Exit with everything still allocated: freeing a thousand plugins'
            // listings one by one costs more than the process has left to do.
            HostCLI.exit()
        case .needsTask(let pending):
            return {
                let loaded = await pending.load()
                show(loaded)
                await loaded.shutdown()
                // As above, once the workers are stopped.
                withExtendedLifetime(loaded) { HostCLI.exit() }
            }
        }
    }
}
