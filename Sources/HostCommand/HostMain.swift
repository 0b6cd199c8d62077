import ArgumentParser
import Dispatch

/// The entry point: parses `host`'s arguments and runs the command, without
/// starting a thread unless the command waits on async work.
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
            HostCLI.exit(withError: error)
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
                HostCLI.exit(withError: error)
            }
            HostCLI.exit()
        }
        dispatchMain()
    }
}

/// A command that waits on async work only for some options, such as `--isolate`.
protocol DirectlyRunnableCommand: AsyncParsableCommand {
    /// Runs the command to the end without suspending and returns nil; or
    /// does what it can here and returns the rest, which needs a task.
    func runDirectly() throws -> (() async throws -> Void)?
}
