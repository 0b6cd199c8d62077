import ArgumentParser
import PluginHost

/// `host plugin-worker`: hidden; what `--isolate` starts once per plugin.
struct PluginWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-worker",
        abstract: "Serve one plugin for an isolated host (started by --isolate; not for use by hand).",
        shouldDisplay: false
    )

    func run() async throws {
        await PluginWorker.run()
    }
}
