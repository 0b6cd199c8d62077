import ArgumentParser
import FoundationEssentials
import PluginHost

/// `host lock-plugins`: record the SHA-256 of every plugin found.
struct LockPlugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Vouch for every plugin found, recording its SHA-256 in your trust store (or in the --allowlist file).",
        discussion: """
            Without --allowlist, records each plugin found in your trust store, $XDG_CONFIG_HOME/patchbay/trusted-plugins, \
            so that it runs in this process, as `host trust` does for one file; plugins bundled with the host are left out, \
            since their location vouches for them. With --allowlist FILE, writes every plugin found into that file instead, \
            which pins them all when given to --allowlist. Plugins in ./plugins are left out either way: vouch for one by name \
            with `host trust FILE`. Writes nothing beside the host executable or into a plugins directory, and runs no plugin code. \
            The format is sha256sum's, so `sha256sum -c` checks the file by hand. \
            Exit status: \(ExitCode.success.rawValue) when every plugin found was recorded or left out on purpose; \
            \(ExitCode.failure.rawValue) when a file failed a check, nothing could be written, or nothing was found; \
            \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        if plugins.allowlist == nil && plugins.wiring.trustStorePath() == nil {
            throw ValidationError("there is no trust store without a configuration directory; set XDG_CONFIG_HOME or HOME, or name a file with --allowlist")
        }
        let host = try plugins.host(trustMustExist: false)
        let report = host.lockPlugins()
        for written in report.written {
            let count = written.lines.count
            let plugins = "\(count) plugin\(count == 1 ? "" : "s")"
            switch written.destination {
            case .trustStore(let path): print(TerminalText.escaped("vouched for \(plugins) in your trust store \(path); they run in-process:"))
            case .allowlist(let path): print(TerminalText.escaped("wrote \(path) (\(plugins)):"))
            }
            for line in written.lines { print(TerminalText.escaped(line)) }
        }
        for leftOut in report.leftOut {
            print(TerminalText.escaped("left out \(leftOut.path): \(leftOut.reason)"))
        }
        for skipped in report.skipped {
            StandardError.write("host: warning: \(TerminalText.escaped("not locking \(skipped.path): \(skipped.reason)"))\n")
        }
        for failure in report.failures {
            let line = failure.path.isEmpty ? failure.reason : "\(failure.path): \(failure.reason); check that you may write there"
            StandardError.write("host: error: \(TerminalText.escaped(line))\n")
        }
        if report.written.isEmpty && report.failures.isEmpty && report.leftOut.isEmpty {
            StandardError.write("host: error: no plugin files were locked; put plugins in the directories --plugins-dir names, or fix the files listed above\n")
            throw ExitCode.failure
        }
        if !report.skipped.isEmpty || !report.failures.isEmpty { throw ExitCode.failure }
    }
}
