import Foundation
import Testing

/// `struct_size` versioning through the `host` executable: a descriptor
/// smaller than the header's is refused in one line, and a larger one from a
/// later minor revision loads, as a user runs it (in a sandboxed worker) and in-process.
@Suite("Descriptor sizes, end to end", .timeLimit(.minutes(10)))
struct DescriptorSizeEndToEndTests {
    static let modes = CommandRunner.fixturePlacements

    @Test("A smaller descriptor is refused naming both sizes; a larger one loads and fetches", arguments: modes)
    func descriptorSizes(flags: [String]) async throws {
        let older = PluginLoaderTests.descriptor(ofSize: 32)
        let directory = try await FixturePlugins.directory(containing: [older, PluginLoaderTests.futureDescriptor], bundled: ["Ethereum"])
        let refused = "\(directory.path)/\(older.fileName)"

        let output = try await CommandRunner.host(
            ["fetch", "FUTURE", "ETH", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags)

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(HostFixtures.ethRow), "\(output.stdout)")
        let future = output.stdout.split(separator: "\n").first { $0.hasPrefix("FUTURE ") }.map { $0.split(separator: " ") }
        // Nobody vouched for it: it is shown with its file.
        #expect(future == ["FUTURE", "USD", "4.00", "FutureDescriptorPlugin", "(unvouched,", "\(directory.path)/future-descriptor.so)"], "\(output.stdout)")
        #expect(output.stderrLines == ["host: warning: skipping \(refused): \(PluginLoaderTests.descriptorTooSmall(32))"])

        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path] + flags)
        let rows = try HostFixtures.pluginRows(listed.stdout)
        #expect(rows[older.fileName]?["status"] as? String == "failed")
        #expect(rows[older.fileName]?["error"] as? String == PluginLoaderTests.descriptorTooSmall(32))
        #expect(rows["future-descriptor.so"]?["status"] as? String == "loaded")
    }
}
