import ArgumentParser
import PluginHost

/// `host trust FILE...`: vouch for plugin files, so they run in this
/// process; `host trust --list`: what is vouched for.
struct Trust: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Vouch for plugin files, so they run in this process rather than in a sandboxed worker.",
        discussion: """
            Checks each file first, as `host inspect` does (the trust checks, then a load in a sandboxed worker, which must \
            register a fetcher), then records its SHA-256 in your trust store, $XDG_CONFIG_HOME/patchbay/trusted-plugins \
            (~/.config/patchbay/trusted-plugins). A trusted file runs in-process with your full authority; if it changes, \
            it is refused until you trust it again. Says, for each file, where it runs now. \
            Plugins bundled with the host need no vouch: their location vouches for them. \
            With --list, prints every file the store lists, its digest, and whether the file still matches. \
            Exit status: \(ExitCode.success.rawValue) when every file was vouched for (or listed); \
            \(ExitCode.failure.rawValue) when a file failed a check or the store cannot be changed; \
            \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @Argument(help: ArgumentHelp("The plugin files (.so) to vouch for.", valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: "List what the trust store vouches for, instead of changing it.")
    var list = false

    @Option(help: "Output format of --list: table or json.")
    var format: OutputFormat = .table

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if list && !files.isEmpty { throw ValidationError("--list takes no files; run `host trust --list`, or `host trust FILE...` to vouch") }
        if !list && files.isEmpty { throw ValidationError("name the plugin files to vouch for, e.g. `host trust plugins/libMyPlugin.so`, or run `host trust --list`") }
        if format != .table && !list { throw ValidationError("--format applies to --list") }
        if !plugins.pluginsDirectories.isEmpty { throw ValidationError("trust reads only the files it is given; drop --plugins-dir") }
    }

    func run() async throws {
        let host = try TrustStoreCommand.host(plugins)
        if list {
            let files: [TrustedFile]
            do throws(TrustStoreError) {
                files = try host.trustedFiles()
            } catch {
                throw TrustStoreCommand.failure(error)
            }
            print(Rendering.trusted(files, store: host.trust.store?.path ?? "", as: format), terminator: "")
            return
        }
        let policy = try plugins.checked { wiring in try wiring.policy() }
        let isolation = try plugins.checked { wiring in try wiring.isolationOptions() }
        let changes: [TrustChange]
        do throws(TrustStoreError) {
            changes = try await host.trust(files, isolation: isolation, policy: policy)
        } catch {
            throw TrustStoreCommand.failure(error)
        }
        try TrustStoreCommand.report(changes)
    }
}
