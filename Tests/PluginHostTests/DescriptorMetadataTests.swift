import Foundation
import PluginBoundary
import PluginHost
import Testing

/// The optional text fields appended to `pb_plugin_descriptor`: read only
/// when `struct_size` covers them, checked like any plugin text, and shown by
/// `list-plugins`, as a user runs it (in a sandboxed worker) and in-process.
@Suite("Descriptor metadata", .timeLimit(.minutes(10)))
struct DescriptorMetadataTests {
    /// Built against the first revision of the header, which ends at
    /// `register_plugin`; fault-on-read pointers follow it in memory.
    static let firstRevision = FixturePlugins.Fixture(
        fileName: "first-revision.so", source: "Tests/Fixtures/CPlugins/descriptor_size.c",
        defines: ["-DFIXTURE_FIRST_REVISION", "-DFIXTURE_NAME=\"FirstRevisionPlugin\"", "-DFIXTURE_SYMBOL=\"FIRST\""])

    /// Sets every optional field.
    static let withMetadata = FixturePlugins.Fixture(
        fileName: "with-metadata.so", source: "Tests/Fixtures/CPlugins/descriptor_size.c",
        defines: ["-DFIXTURE_METADATA", "-DFIXTURE_NAME=\"MetadataPlugin\"", "-DFIXTURE_SYMBOL=\"META\""])

    /// A description one byte over the limit.
    static let longDescription = FixturePlugins.Fixture(
        fileName: "long-description.so", source: "Tests/Fixtures/CPlugins/descriptor_size.c",
        defines: ["-DFIXTURE_DESCRIPTION=\"\(String(repeating: "d", count: 513))\"", "-DFIXTURE_NAME=\"WordyPlugin\"", "-DFIXTURE_SYMBOL=\"WORDY\""])

    static let modes = CommandRunner.fixturePlacements

    @Test("A plugin built against the first, smaller descriptor loads, and none of the later fields is read")
    func firstRevisionLoads() async throws {
        let path = try await FixturePlugins.library(Self.firstRevision).path

        let result = PluginLoader(services: .simulated(SimulatedNetworking([:]))).load([path])

        let report = try #require(result.reports.first)
        #expect(report.status == .loaded, "\(report.error ?? "")")
        let metadata = try #require(report.metadata)
        #expect(metadata.abiVersion == 1 && metadata.descriptorSize == 40)
        #expect([metadata.description, metadata.author, metadata.license, metadata.homepage] == [nil, nil, nil, nil])
        let quote = try await Deadline.within(.seconds(120), "FIRST's price") {
            try await FetcherRegistry(result.fetchers).fetcher(for: "FIRST").price(in: "USD", timeout: .seconds(60))
        }.get()
        #expect(quote.amount == "4.00")
    }

    @Test("The optional fields are read when the descriptor sets them")
    func metadataIsRead() async throws {
        let path = try await FixturePlugins.library(Self.withMetadata).path

        let report = try #require(PluginLoader(services: .simulated(SimulatedNetworking([:]))).load([path]).reports.first)

        #expect(report.status == .loaded, "\(report.error ?? "")")
        let metadata = try #require(report.metadata)
        #expect(metadata.descriptorSize == UInt32(PluginMetadata.currentDescriptorSize))
        #expect(metadata.description == "Answers 4.00 for every fetch, for the tests.")
        #expect(metadata.author == "Patchbay tests <tests@example.invalid>")
        #expect(metadata.license == "MIT")
        #expect(metadata.homepage == "https://example.invalid/size")
    }

    @Test("A description over 512 bytes refuses the plugin, naming the field and the limit")
    func longDescriptionIsRefused() async throws {
        let path = try await FixturePlugins.library(Self.longDescription).path

        let report = try #require(PluginLoader(services: .simulated(SimulatedNetworking([:]))).load([path]).reports.first)

        #expect(report.status == .failed)
        #expect(report.error == "refused: the descriptor's description is longer than 512 bytes; fix the plugin's pb_plugin_descriptor")
    }

    @Test("list-plugins --format json shows the metadata, and a first-revision plugin without it", arguments: modes)
    func listPluginsShowsMetadata(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.firstRevision, Self.withMetadata])

        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path] + flags)

        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try HostFixtures.pluginRows(listed.stdout)
        let first = try #require(rows["first-revision.so"])
        #expect(first["status"] as? String == "loaded")
        #expect(first["description"] == nil && first["author"] == nil && first["license"] == nil && first["homepage"] == nil)
        let described = try #require(rows["with-metadata.so"])
        #expect(described["status"] as? String == "loaded")
        #expect(described["description"] as? String == "Answers 4.00 for every fetch, for the tests.")
        #expect(described["author"] as? String == "Patchbay tests <tests@example.invalid>")
        #expect(described["license"] as? String == "MIT")
        #expect(described["homepage"] as? String == "https://example.invalid/size")

        let fetched = try await CommandRunner.host(["fetch", "FIRST", "META", "--plugins-dir", directory.path] + flags)
        #expect(fetched.status == 0, "\(fetched.stderr)")
    }
}
