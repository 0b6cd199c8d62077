import ArgumentParser
import PluginHost

/// A command that loads the plugins, prints what it reports about them, and
/// is done: `list-fetchers`, `list-plugins` and `graph`.
///
/// From a warm registry cache, or loaded in-process without one, it never
/// waits, so it finishes on the main thread (``DirectlyRunnableCommand``);
/// when plugins must be scanned or run in workers it runs as a task and
/// stops the workers after printing.
protocol ReportCommand: DirectlyRunnableCommand {
    /// The options that find and load the plugins.
    var plugins: PluginOptions { get }

    /// Prints the report on the loaded plugins.
    func show(_ loaded: LoadedPlugins)
}

extension ReportCommand {
    func run() async throws {
        let loaded = try await plugins.loadPlugins()
        show(loaded)
        await loaded.shutdown()
    }

    func runDirectly() throws -> Bool {
        guard let loaded = try plugins.loadPluginsWithoutWaiting() else { return false }
        show(loaded)
        // Exit with everything still allocated: freeing a thousand plugins'
        // listings one by one costs more than the process has left to do.
        HostCLI.exit()
    }
}
