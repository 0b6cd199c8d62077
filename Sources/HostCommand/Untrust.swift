import ArgumentParser
import PluginHost

/// `host untrust FILE...`: take back a vouch, so the files run sandboxed again.
struct Untrust: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take back your vouch for plugin files, so they run in a sandboxed worker again.",
        discussion: """
            Removes each file from your trust store, $XDG_CONFIG_HOME/patchbay/trusted-plugins \
            (~/.config/patchbay/trusted-plugins), and says where it runs now. Runs no plugin code; \
            the file need not exist any more. \
            Exit status: \(ExitCode.success.rawValue) when every file was taken out; \
            \(ExitCode.failure.rawValue) when a file was not in the store or the store cannot be changed; \
            \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @Argument(help: ArgumentHelp("The plugin files (.so) to take back.", valueName: "file"))
    var files: [String]

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if !plugins.pluginsDirectories.isEmpty { throw ValidationError("untrust reads only the files it is given; drop --plugins-dir") }
    }

    func run() throws {
        let host = try TrustStoreCommand.host(plugins)
        let policy = try plugins.checked { wiring in try wiring.policy() }
        let changes: [TrustChange]
        do throws(TrustStoreError) {
            changes = try host.untrust(files, policy: policy)
        } catch {
            throw TrustStoreCommand.failure(error)
        }
        try TrustStoreCommand.report(changes)
    }
}
