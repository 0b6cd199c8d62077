import Foundation
import PluginHost
import Testing

@Suite("Files that are not working plugins are refused, one line each, and the rest still load", .timeLimit(.minutes(10)))
struct BrokenPluginTests {
    static let truncated: Data = {
        let data = (try? Data(contentsOf: FixturePlugins.bundledPlugin("Bitcoin"))) ?? Data()
        return data.prefix(1000)
    }()

    /// An ELF header whose program headers start past `Int64.max`: it
    /// crashed the host before the check read the offset as a whole
    /// number (found by the `elf-header` fuzz target).
    static let programHeadersPastInt64: Data = {
        var header = [UInt8](repeating: 0, count: 64)
        header[0..<8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]
        header[16] = 3  // ET_DYN
        header[18] = 62  // x86-64
        header[32..<40] = [0, 0, 0, 0, 0xF7, 0xFF, 0xFF, 0xFF]  // e_phoff
        header[54] = 56  // e_phentsize
        header[56] = 1  // e_phnum
        return Data(header)
    }()

    static let cases: [(file: String, data: Data?, variant: FixturePlugins.Variant?, message: String)] = [
        ("junk.so", Data("this is not an ELF file, just some bytes".utf8), nil, "not a loadable plugin library"),
        ("empty.so", Data(), nil, "not a loadable plugin library"),
        ("truncated.so", truncated, nil, "not a loadable plugin library"),
        ("far-program-headers.so", programHeadersPastInt64, nil, "its program headers end past the end of the file (64 bytes)"),
        ("no-entry-point.so", nil, .noEntryPoint, "does not export patchbay_plugin_entry()"),
        ("wrong-abi.so", nil, .wrongABI, "the host uses ABI version 1, the plugin was built for ABI version 99"),
        ("bad-magic.so", nil, .badMagic, "descriptor magic is 0xDEADBEEF, expected 0x50424159"),
        ("registration-fails.so", nil, .registrationFails, "registration failed with status 4: cannot start: the fixture is built to fail registration"),
    ]

    @Test("Each broken file is reported as failed with a reason", arguments: cases.indices)
    func brokenFileIsRefused(index: Int) async throws {
        let (file, data, variant, message) = Self.cases[index]
        let directory = try await FixturePlugins.directory(
            with: variant.map { [$0] } ?? [],
            bundled: ["Ethereum"],
            extraFiles: data.map { [file: $0] } ?? [:]
        )
        let discovery = PluginDiscovery(locations: [.init(directory: directory.path, pattern: .anySharedLibrary, isExplicit: true)])
        let loaded = Host(discovery: discovery, services: .simulated(SimulatedNetworking([:]))).loadPlugins()

        let broken = try #require(loaded.reports.first { $0.path.hasSuffix(file) })
        #expect(broken.status == .failed)
        #expect(broken.error?.contains(message) == true, "\(broken.error ?? "nil")")
        #expect(broken.fetchers.isEmpty)
        #expect(loaded.registry.symbols == ["ETH"])
    }

    @Test("A symbol a second file registers too makes it a second source, asked after the first; both load")
    func duplicateSymbolIsASecondSource() async throws {
        let directory = try await FixturePlugins.directory(with: [.duplicateBTC], bundled: ["Bitcoin"])
        let discovery = PluginDiscovery(locations: [.init(directory: directory.path, pattern: .anySharedLibrary, isExplicit: true)])
        let loaded = Host(discovery: discovery, services: .simulated(SimulatedNetworking([:]))).loadPlugins()

        #expect(loaded.registry.fetchers.map(\.plugin.name) == ["BitcoinPlugin", "DuplicateBitcoinPlugin"])
        #expect(loaded.registry.symbols == ["BTC"])
        // Neither is vouched for in a directory the test named: Bitcoin's primary is believed up to secondary, and search order decides.
        #expect(try loaded.registry.sources(for: "btc", named: nil).map(\.plugin.name) == ["BitcoinPlugin", "DuplicateBitcoinPlugin"])
        // Nobody vouched for it, so its file selects it, not its name.
        let file = directory.appending(path: FixturePlugins.Variant.duplicateBTC.fileName).path
        #expect(try loaded.registry.sources(for: "BTC", named: file).map(\.plugin.name) == ["DuplicateBitcoinPlugin"])
        #expect(throws: FetchError.self) { try loaded.registry.sources(for: "BTC", named: "DuplicateBitcoinPlugin") }
        #expect(loaded.reports.map(\.status) == [.loaded, .loaded])
        #expect(loaded.reports.allSatisfy { $0.warnings.isEmpty })
    }
}
