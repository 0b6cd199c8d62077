import Foundation
import Testing

/// Where plugins run when the registry cache is off (`--no-cache`): every
/// file is loaded in one pass, in search order, the host's own bundled
/// plugins first and in-process, so a stranger right after them must still
/// get a worker of its own. The fixture's constructor marks
/// `$FIXTURE_MARKER`, which only a plugin in the host's own process can.
extension VouchingEndToEndTests {
    @Test("With --no-cache, a plugin in ./plugins, loaded right after the bundled ones, still runs sandboxed")
    func strangerAfterBundledWithoutCache() async throws {
        let user = User()
        let api = try await Self.api()
        let workingDirectory = try TemporaryDirectory.make()
        let plugins = workingDirectory.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try await FixturePlugins.library(Self.bundledTools), to: plugins.appending(path: Self.bundledTools.fileName))

        // NB: --timeout is a hang guard, not under test (the default 10 s is too little at load 40).
        let output = try await user.host(["fetch", "TOOL", "--no-cache", "--timeout", "120", "--api-base-url", api], in: workingDirectory)

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.unlabelled.stdout == Self.toolRow, "\(output.stderr)")
        #expect(try !user.ranInProcess(), "a plugin in ./plugins ran in-process beside the bundled ones")
        // The marker works: trusting the file runs it in-process.
        let trusted = try await user.host(["fetch", "TOOL", "--no-cache", "--no-isolate", "--timeout", "120", "--api-base-url", api], in: workingDirectory)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(try user.ranInProcess(), "the fixture never marked: the test above tests nothing")
    }
}
