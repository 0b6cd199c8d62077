import ArgumentParser
import Glibc
import PluginBoundary
import PluginHost

/// `host inspect FILE`: what the host sees in one plugin file, without fetching.
struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the host sees in one plugin file, without fetching anything.",
        discussion: """
            Prints the descriptor (name, version, ABI version, struct_size, description, author, license, homepage), \
            every fetcher with the rank it declares and the rank fetch would use (and why they differ: capped when nobody vouched for it, or HOST_RANKS), \
            the API base it declares and the one it would be told, each trust check with its verdict, the lock file's verdict and the file's SHA-256, \
            the mode the plugin would load in with the same options, and its problem, if any. \
            The plugin's code runs only in an isolated, sandboxed worker, never in this process, \
            so inspecting a file you do not trust is safe. \
            Exit status: \(ExitCode.success.rawValue) for a working plugin; \(ExitCode.failure.rawValue) when it is not one, or the file is missing; \
            \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @Argument(help: ArgumentHelp("The plugin file (.so) to inspect.", valueName: "file"))
    var file: String

    @OptionGroup var plugins: PluginOptions

    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table

    func validate() throws {
        guard plugins.pluginsDirectories.isEmpty else {
            throw ValidationError("inspect reads only the file it is given; drop --plugins-dir, e.g. `host inspect plugins/libMyPlugin.so`")
        }
    }

    func run() async throws {
        // A path that names nothing has no checks to show: one line, not a report of every check failing.
        var status = stat()
        if lstat(file, &status) != 0 {
            let reason = SystemError(operation: "stat", errno: errno).reason
            StandardError.write("host: error: \(TerminalText.escaped(file)): \(reason); give the path of a plugin file, e.g. `host inspect plugins/libMyPlugin.so`\n")
            throw ExitCode.failure
        }
        let policy = try plugins.checked { wiring in try wiring.policy() }
        let isolation = try plugins.checked { wiring in try wiring.isolationOptions() }
        let ranks = try plugins.checked { wiring in try wiring.ranks() }
        let inspection = try await plugins.host().inspect(file, isolation: isolation, policy: policy, ranks: ranks)
        print(Rendering.inspection(inspection, as: format), terminator: "")
        guard inspection.isWorking else {
            let problem = inspection.report.error ?? "it registered no fetchers"
            StandardError.write("host: error: \(TerminalText.escaped("\(file) is not a working plugin: \(problem)"))\n")
            throw ExitCode.failure
        }
    }
}
