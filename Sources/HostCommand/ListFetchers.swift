import ArgumentParser
import PluginHost

/// `host list-fetchers`: every symbol the loaded plugins provide.
struct ListFetchers: DirectlyRunnableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-fetchers",
        abstract: "List the symbols the loaded plugins can fetch.")

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
        print(Rendering.fetchers(loaded.registry.fetchers, as: format), terminator: "")
    }
}
