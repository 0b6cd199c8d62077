import ArgumentParser
import PluginBoundary
import PluginHost

/// `host allow FILE [--url URL]`: let a plugin nobody vouched for fetch
/// under its API base, still sandboxed.
struct Allow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Let a plugin nobody vouched for fetch under its API base, while it keeps running in a sandboxed worker.",
        discussion: """
            Checks the file first, as `host trust` does, then records its SHA-256 and the URL in your network grants, \
            $XDG_CONFIG_HOME/patchbay/network-grants (~/.config/patchbay/network-grants). The plugin may then fetch \
            under that URL, and still runs sandboxed; if the file changes, it loses the grant until you allow it again \
            (host list-plugins says so). A plugin may fetch under a base that --api-base-url PLUGIN=URL gives it, that \
            host allow granted it, or that it declares when it is bundled or vouched for (host trust), which need no grant. \
            A declared base that reads files (file:) or reaches link-local addresses (169.254.0.0/16, fe80::/10, where \
            cloud machines serve their credentials) is granted only when you name it with --url. \
            Exit status: \(ExitCode.success.rawValue) when the grant is recorded; \
            \(ExitCode.failure.rawValue) when the file failed a check, needs no grant, declares no base (or one of those) and no --url was given, \
            or the grants cannot be changed; \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @Argument(help: ArgumentHelp("The plugin file (.so) to let fetch.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The http, https or file URL it may fetch under, instead of the API base it declares.", valueName: "url"))
    var url: String?

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if !plugins.pluginsDirectories.isEmpty { throw ValidationError("allow reads only the file it is given; drop --plugins-dir") }
        if let url {
            do throws(APIBaseError) {
                try APIBases.check(url, entry: url)
            } catch {
                throw ValidationError(error.message(naming: "--url"))
            }
        }
    }

    func run() async throws {
        let host = try TrustStoreCommand.host(plugins)
        let policy = try plugins.checked { wiring in try wiring.policy() }
        let isolation = try plugins.checked { wiring in try wiring.isolationOptions() }
        let change: NetworkGrantChange
        do throws(TrustStoreError) {
            change = try await host.allow(file, url: url, isolation: isolation, policy: policy)
        } catch {
            throw TrustStoreCommand.failure(error)
        }
        try NetworkGrantReport.report(change)
    }
}
