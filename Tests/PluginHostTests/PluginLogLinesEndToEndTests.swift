import Foundation
import Testing

/// A plugin's own log lines (its `log` calls): shown only with `-v`, once
/// even on a first run (when the file is scanned, then loaded), and under
/// the same label in-process and in a worker: the name alone only when
/// someone vouched for the plugin, else with its file, so that a stranger
/// never passes for a vouched plugin (issue 37 §5, issue 34).
@Suite("Plugin log lines", .timeLimit(.minutes(10)))
struct PluginLogLinesEndToEndTests {
    static let line = "hello from register"

    /// A stranger that logs a warning while it registers, and answers at once.
    static let logger = FixturePlugins.Fixture(
        fileName: "logger.so",
        defines: [
            "-DFIXTURE_LOG_WHILE_REGISTERING=\"\(line)\"", "-DFIXTURE_NAME=\"LoggerPlugin\"", "-DFIXTURE_SYMBOL=\"LOGGD\"",
            "-DFIXTURE_AMOUNT=\"2.00\"",
        ])

    @Test("Without -v a plugin's own warning is not shown, on a first run or a later one", arguments: CommandRunner.fixturePlacements)
    func quietWithoutVerbose(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.logger])
        let cache = try TemporaryDirectory.make().path
        for run in ["first", "warm"] {
            let output = try await CommandRunner.host(
                ["fetch", "LOGGD", "--plugins-dir", directory.path] + flags, environment: ["XDG_CACHE_HOME": cache])
            #expect(output.status == 0, "\(run): \(output.stderr)")
            #expect(output.stderrLines.isEmpty, "\(run): \(output.stderr)")
        }
    }

    @Test("With -v it is shown once, on a first run too, labelled alike in a worker and in-process", arguments: CommandRunner.fixturePlacements)
    func onceWithVerbose(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.logger])
        let file = directory.appending(path: "logger.so").path
        let cache = try TemporaryDirectory.make().path
        for run in ["first", "warm"] {
            let output = try await CommandRunner.host(
                ["fetch", "LOGGD", "-v", "--plugins-dir", directory.path] + flags, environment: ["XDG_CACHE_HOME": cache])
            #expect(output.status == 0, "\(run): \(output.stderr)")
            #expect(
                output.stderrLines.filter { $0.contains(Self.line) } == ["host: [LoggerPlugin (unvouched, \(file))] warning: \(Self.line)"],
                "\(run): \(output.stderr)")
        }
    }
}
