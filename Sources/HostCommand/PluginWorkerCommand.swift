import ArgumentParser
import PluginHost

/// `host plugin-worker`: hidden; what `--isolate` starts once per plugin.
///
/// A synchronous command, so that ``HostMain`` runs it on the main thread
/// before any other thread exists: the worker confines itself first, and the
/// sandbox covers only threads started afterwards.
struct PluginWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugin-worker",
        abstract: "Serve one plugin for an isolated host (started by --isolate; not for use by hand).",
        discussion: """
            Exit status: \(ExitCode.success.rawValue) when the host closed the pipes; \(ExitCode.validationFailure.rawValue) when not started by a host.
            """,
        shouldDisplay: false
    )

    func run() throws {
        // The host checked HOST_SANDBOX_DISABLE before starting this worker;
        // anything it could not read is no reason to confine less.
        let skipped = (try? HostWiring(settings: HostSettings(), names: .host).skippedSandboxLayers()) ?? []
        do throws(PluginWorker.NotStartedByHost) {
            try PluginWorker.run(skippingSandbox: skipped, naming: .host)
        } catch {
            StandardError.write(
                "host: error: plugin-worker is started by `host --isolate` with its pipes on fds 3 and 4; it is not meant to be run by hand\n")
            throw ExitCode.validationFailure
        }
    }
}
