import ArgumentParser
import PluginHost

/// `host rescan`: scan every plugin again and rewrite the scan cache.
struct Rescan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan every plugin again, each in a sandboxed worker, and rewrite the plugin registry cache.",
        discussion: """
            The cache lives in $XDG_CACHE_HOME/patchbay (~/.cache/patchbay), one file per search path. \
            Other commands already scan plugin files that are new or changed; rescan also retries \
            plugins whose scan failed, which are otherwise remembered as failed until their file changes. \
            Exit status: \(ExitCode.success.rawValue) when the cache was written; \(ExitCode.failure.rawValue) when it could not be; \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if plugins.noCache {
            throw ValidationError("rescan rebuilds the plugin cache, which --no-cache turns off; drop --no-cache")
        }
    }

    func run() async throws {
        guard let cacheHome = plugins.wiring.cacheHome() else {
            throw ValidationError("there is nowhere to keep the plugin cache: set HOME or XDG_CACHE_HOME")
        }
        var options = try plugins.loadOptions()
        options.cache = .rebuild(cacheHome: cacheHome)
        let (loaded, report) = try await plugins.host().rescan(options, cacheHome: cacheHome)
        await loaded.shutdown()
        if let writeError = report.writeError {
            StandardError.write("host: error: \(TerminalText.escaped(writeError))\n")
            throw ExitCode.failure
        }
        let failed = report.scanned - report.loaded
        print("scanned \(report.scanned) plugin file\(report.scanned == 1 ? "" : "s"): \(report.loaded) loaded, \(failed) failed; wrote \(TerminalText.escaped(report.cachePath))")
    }
}
