import Foundation
import Testing

/// Each error names the fix that works for the way the host was started,
/// and for what went wrong: through the built `host`, as a user meets them.
@Suite("Advice that fits the case")
struct AdviceTests {
    static let checkout = FixturePlugins.repositoryRoot.standardized.path

    @Test("An API that cannot be reached suggests the offline file:// fixtures of the checkout")
    func unreachableSuggestsFixtures() async throws {
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        // One source: the bundled Bitstamp plugin, a second source of ETH, is never asked.
        let output = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", "http://127.0.0.1:1"], environment: ["HOST_RANKS": "BitstampPlugin:0"])

        #expect(output.status == 1)
        #expect(output.stderrLines.count == 1, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "; with no network, fetch from the offline fixtures instead: --api-base-url file://\(Self.checkout)/Fixtures/coinbase\n"),
            "\(output.stderr)")
    }

    @Test("A --plugins-dir with no plugins says to put plugins there, not to run swift build")
    func namedDirectoryWithoutPlugins() async throws {
        let empty = try TemporaryDirectory.make().path

        let output = try await CommandRunner.host(["fetch", "ETH", "--plugins-dir", empty])

        #expect(output.status == 2)
        let fix = "put plugin files (.so) there, or drop --plugins-dir and HOST_PLUGINS_DIR to search the usual directories"
        #expect(output.stderrLines == [
            "host: warning: no plugin files found in \(empty); \(fix)",
            "host: error: ETH: unknown symbol ETH: no fetchers are loaded; \(fix)",
        ])
        #expect(!output.stderr.contains("swift build"))
    }

    @Test("An unknown symbol run from above a plugin project's folder says where its plugins are")
    func wrongWorkingDirectory() async throws {
        let above = try TemporaryDirectory.make()
        let project = above.appending(path: "Dogecoin/plugins")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: await FixturePlugins.library(FixturePlugins.Variant.cPlugin.fixture), to: project.appending(path: "libDogecoinPlugin.so"))

        let output = try await CommandRunner.host(["fetch", "DOGE"], in: above)

        #expect(output.status == 2)
        #expect(output.stderrLines == [
            "host: error: DOGE: unknown symbol DOGE; available symbols: BTC, ETH; there is no ./plugins here, but Dogecoin/plugins has plugins: run from Dogecoin, or pass --plugins-dir Dogecoin/plugins"
        ])
    }

    @Test("A bad flag is one line in the host's error style, not argument-parser's `Error:`")
    func oneErrorStyle() async throws {
        let output = try await CommandRunner.host(["list-fetchers", "--bogus"])

        #expect(output.status == 64)
        #expect(output.stderrLines.first == "host: error: Unknown option '--bogus'")
        #expect(!output.stderr.contains("Error:"), "\(output.stderr)")
    }
}
