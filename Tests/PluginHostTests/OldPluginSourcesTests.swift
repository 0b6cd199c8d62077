import Foundation
import Testing

/// Plugin sources of the release before the rank fields
/// (Tests/Fixtures/OldPluginSources, taken from commit 273750a), built
/// against today's header with the flags their Makefiles used: a header
/// that appends fields must not break a `-Werror` build (issue 37).
@Suite("Old plugin sources keep compiling", .timeLimit(.minutes(2)))
struct OldPluginSourcesTests {
    static let root = FixturePlugins.repositoryRoot
    static let flags = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC"]

    @Test("The earlier release's example, new-plugin template and Getting Started plugin build under -Wall -Wextra -Werror", arguments: [
        "CPlugin/coinbase_plugin.c", "NewPluginC/plugin.c", "GettingStarted/test_plugin.c",
    ])
    func earlierSourcesBuild(source: String) async throws {
        let output = try await compile(Self.root.appending(path: "Tests/Fixtures/OldPluginSources/\(source)"))

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }

    @Test("Today's example initialises by field name: it builds with the header's missing-field warning kept")
    func todaysExampleNamesItsFields() async throws {
        let output = try await compile(Self.root.appending(path: "Examples/CPlugin/coinbase_plugin.c"), defining: "PB_KEEP_MISSING_FIELD_INITIALIZERS")

        #expect(output.status == 0, "\(output.stderr)")
    }

    @Test("With the warning kept, the earlier positional pb_fetcher fails, naming the field it leaves out")
    func keptWarningCatchesPositional() async throws {
        let output = try await compile(
            Self.root.appending(path: "Tests/Fixtures/OldPluginSources/CPlugin/coinbase_plugin.c"), defining: "PB_KEEP_MISSING_FIELD_INITIALIZERS")

        #expect(output.status != 0)
        #expect(output.stderr.contains("rank"), "\(output.stderr)")
    }

    /// Builds `source` into a temporary library with `cc`, as the Makefiles do.
    private func compile(_ source: URL, defining macro: String? = nil) async throws -> CommandRunner.Output {
        let library = try TemporaryDirectory.make().appending(path: "libOld.so")
        let arguments = ["cc"] + Self.flags + (macro.map { ["-D\($0)"] } ?? [])
            + ["-I\(Self.root.appending(path: "Sources/PluginABI/include").path)", "-o", library.path, source.path]
        return try await CommandRunner.run(URL(filePath: "/usr/bin/env"), arguments, environment: ProcessInfo.processInfo.environment, in: nil)
    }
}
