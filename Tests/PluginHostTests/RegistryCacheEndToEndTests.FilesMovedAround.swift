import Foundation
import Testing

/// The cache's entries meet the files in the order the cache wrote them,
/// until a file is added or removed: then every other file must still be
/// found in the cache, by its path, and no file taken for another.
extension RegistryCacheEndToEndTests {
    @Test("After a file in the middle is removed and one is added at the end, every other plugin is still listed from the cache")
    func removedAndAddedFiles() async throws {
        let zed = FixturePlugins.Fixture(fileName: "libZedPlugin.so", defines: ["-DFIXTURE_SYMBOL=\"ZED\"", "-DFIXTURE_NAME=\"ZedPlugin\""])
        let last = FixturePlugins.Fixture(fileName: "libZzzPlugin.so", defines: ["-DFIXTURE_SYMBOL=\"ZZZ\"", "-DFIXTURE_NAME=\"ZzzPlugin\""])
        let directory = try await FixturePlugins.directory(containing: [FixturePlugins.Variant.cPlugin.fixture, Self.wow, zed])
        let cache = Cache()
        let cold = try await host(["list-fetchers"], cache: cache, plugins: directory)
        #expect(cold.status == 0, "\(cold.stderr)")

        try FileManager.default.removeItem(at: directory.appending(path: Self.wow.fileName))
        try FileManager.default.copyItem(at: await FixturePlugins.library(last), to: directory.appending(path: last.fileName))
        let output = try await host(["list-plugins", "--format", "json"], cache: cache, plugins: directory)
        #expect(output.status == 0, "\(output.stderr)")

        let listed = try plugins(output)
        #expect(listed.map(\.name) == ["CDogecoinPlugin", "ZedPlugin", "ZzzPlugin"])
        #expect(listed.map(\.fetchers) == [["DOGE"], ["ZED"], ["ZZZ"]])
        #expect(listed.map(\.cached) == [true, true, false], "a file the cache knows was scanned again, or a new one taken for another")
    }
}
