import ArgumentParser
import PluginHost

/// `host disallow FILE`: take back what `host allow` granted.
struct Disallow: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take back a plugin's network grant (host allow), so it may no longer fetch under that URL.",
        discussion: """
            Removes the file from your network grants, $XDG_CONFIG_HOME/patchbay/network-grants \
            (~/.config/patchbay/network-grants). Runs no plugin code; the file need not exist any more. \
            Exit status: \(ExitCode.success.rawValue) when the grant was taken back; \
            \(ExitCode.failure.rawValue) when the file had no grant or the grants cannot be changed; \
            \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @Argument(help: ArgumentHelp("The plugin file (.so) to take the grant back from.", valueName: "file"))
    var file: String

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if !plugins.pluginsDirectories.isEmpty { throw ValidationError("disallow reads only the file it is given; drop --plugins-dir") }
    }

    func run() throws {
        let host = try TrustStoreCommand.host(plugins)
        let policy = try plugins.checked { wiring in try wiring.policy() }
        let change: NetworkGrantChange
        do throws(TrustStoreError) {
            change = try host.disallow(file, policy: policy)
        } catch {
            throw TrustStoreCommand.failure(error)
        }
        try NetworkGrantReport.report(change)
    }
}
