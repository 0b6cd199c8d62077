import ArgumentParser
import FoundationEssentials
import PluginHost

/// `host lock-plugins`: record the SHA-256 of every plugin found.
struct LockPlugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a lock file with the SHA-256 of every plugin found, so that only these files load.",
        discussion: """
            Without --allowlist, writes plugins.lock into each plugins directory; with it, writes that one file. \
            Runs no plugin code. The format is sha256sum's, so `sha256sum -c plugins.lock` checks it by hand. \
            Exit status: \(ExitCode.success.rawValue) when every plugin found was locked, \(ExitCode.failure.rawValue) when a file \
            was left out or nothing could be written; \(ExitCode.validationFailure.rawValue) for a usage error.
            """
    )

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let host = try plugins.host(trustMustExist: false)
        let report = host.lockPlugins()
        for written in report.written {
            let count = written.lines.count
            print("wrote \(written.path) (\(count) plugin\(count == 1 ? "" : "s")):")
            for line in written.lines { print(TerminalText.escaped(line)) }
        }
        for skipped in report.skipped {
            StandardError.write("host: warning: \(TerminalText.escaped("not locking \(skipped.path): \(skipped.reason)"))\n")
        }
        for failure in report.failures {
            StandardError.write("host: error: \(failure.path): \(failure.reason); check that you may write there\n")
        }
        if report.written.isEmpty && report.failures.isEmpty {
            StandardError.write("host: error: no plugin files were locked; put plugins in the directories --plugins-dir names, or fix the files listed above\n")
            throw ExitCode.failure
        }
        if !report.skipped.isEmpty || !report.failures.isEmpty { throw ExitCode.failure }
    }
}
