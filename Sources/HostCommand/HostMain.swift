import ArgumentParser
import Dispatch
import Glibc
import PluginHost

/// The entry point: parses `host`'s arguments and runs the command, without
/// starting a thread unless the command waits on async work, and words every
/// error that ends a run in the one style, `host: error: …`.
///
/// `AsyncParsableCommand.main()` would park the main thread and run every
/// command on a Dispatch worker thread. Listing plugins loaded in-process
/// never waits, yet paid about 1 ms of a 14 ms run for that thread. So a
/// ``DirectlyRunnableCommand`` first gets the chance to finish here, on the
/// main thread; everything else runs as a task, as an async `main` runs it.
@main
enum HostMain {
    static func main() {
        let command: any AsyncParsableCommand
        do {
            let parsed = try HostCLI.parseAsRoot()
            if let direct = parsed as? any DirectlyRunnableCommand {
                guard let rest = try direct.runDirectly() else { return }
                runAsTask(rest)
            }
            guard let asynchronous = parsed as? any AsyncParsableCommand else {
                // Help, version and completion requests, and `lock-plugins`.
                var synchronous = parsed
                try synchronous.run()
                return
            }
            command = asynchronous
        } catch {
            exit(withError: error)
        }
        runAsTask(command)
    }

    /// Runs `command` on the global executor while the main thread serves
    /// the main queue, and exits when it is done. Nothing blocks: this is
    /// what the runtime does for an async `main`.
    private static func runAsTask(_ command: sending any AsyncParsableCommand) -> Never {
        runAsTask {
            var command = command
            try await command.run()
        }
    }

    /// Runs `work` the same way, exiting with its error if it throws.
    private static func runAsTask(_ work: sending @escaping () async throws -> Void) -> Never {
        Task {
            do {
                try await work()
            } catch {
                exit(withError: error)
            }
            HostCLI.exit()
        }
        dispatchMain()
    }

    /// Prints what ends the run and exits with its status: help, a version
    /// or a completion script on stdout; anything else on stderr in `host`'s
    /// error style. argument-parser's own `exit(withError:)` would start
    /// parse and validation errors with `Error:`, unlike every other line
    /// the host prints.
    static func exit(withError error: any Error) -> Never {
        let status = HostCLI.exitCode(for: error)
        let text = HostCLI.fullMessage(for: error)
        if status == .success {
            if !text.isEmpty { print(text) }
        } else if !text.isEmpty {
            // Each line escaped: argument-parser repeats what the user typed, ESC and all.
            StandardError.write(restyled(text).split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }.joined(separator: "\n") + "\n")
        }
        Glibc.exit(status.rawValue)
    }

    /// `text` with argument-parser's leading `Error: ` replaced by `host: error: `.
    static func restyled(_ text: String) -> String {
        let prefix = "Error: "
        return text.hasPrefix(prefix) ? "host: error: " + text.dropFirst(prefix.count) : text
    }
}

/// A command that waits on async work only for some options, such as `--isolate`.
protocol DirectlyRunnableCommand: AsyncParsableCommand {
    /// Runs the command to the end without suspending and returns nil; or
    /// does what it can here and returns the rest, which needs a task.
    func runDirectly() throws -> (() async throws -> Void)?
}
