import ArgumentParser
import PluginHost

/// `host list-plugins`: every plugin file found, loaded or not, and why not.
struct ListPlugins: DirectlyRunnableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-plugins",
        abstract: "List the plugin files found, with their status.")

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func run() async throws {
        let loaded = try await plugins.loadPlugins()
        show(loaded)
        await loaded.shutdown()
    }

    func runDirectly() throws -> Bool {
        guard let loaded = try plugins.loadPluginsInProcess() else { return false }
        show(loaded)
        return true
    }

    private func show(_ loaded: LoadedPlugins) {
        print(Rendering.plugins(loaded.reports, as: format), terminator: "")
    }
}
