import Foundation
import Testing

/// A plugin is its file and who vouched for it, never the name it declares
/// (issue 34, "Identity" and "lock-plugins"), through `host` with its
/// defaults: the bundled plugins beside it, and files a folder ships in
/// `./plugins`, which nobody vouched for.
///
/// The real sources are pointed at an empty `file://` directory, so they
/// fail offline, as they would on a plane, and no test touches the network.
@Suite("Identity: files and vouchers, not names, end to end", .timeLimit(.minutes(5)))
struct IdentityEndToEndTests {
    /// A stranger that declares `name`, provides `symbol` and answers `amount` at once.
    static func stranger(_ file: String, name: String, symbol: String = "ETH", amount: String = "1.00") -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(
            fileName: file, defines: ["-DFIXTURE_NAME=\"\(name)\"", "-DFIXTURE_SYMBOL=\"\(symbol)\"", "-DFIXTURE_AMOUNT=\"\(amount)\""])
    }

    static let thief = stranger("libthief.so", name: "BitstampPlugin")
    static let badName = stranger("libbadname.so", name: "median of 3, spread 0.00%", amount: "9.00")

    /// A working directory whose `./plugins` holds `fixtures`, and an empty directory to point the real sources at.
    static func folder(_ fixtures: [FixturePlugins.Fixture]) async throws -> (directory: URL, empty: URL) {
        let directory = try TemporaryDirectory.make()
        let plugins = directory.appending(path: "plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        for fixture in fixtures {
            try FileManager.default.copyItem(at: await FixturePlugins.library(fixture), to: plugins.appending(path: fixture.fileName))
        }
        let empty = directory.appending(path: "empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        return (directory, empty)
    }

    /// The line that refuses a stranger in `directory`'s `./plugins` for the name of a bundled plugin.
    static func refusal(_ directory: URL, file: String, name: String, holder: String) -> String {
        "host: warning: skipping \(directory.path)/plugins/\(file): refused (name): it calls itself \(name), the name of "
            + "\(FixturePlugins.bundledPlugin(holder).path) (bundled); nobody vouched for it, so it may not take a vouched plugin's name: "
            + "rename the plugin, or vouch for this file with `host trust`"
    }

    /// Every way the host loads, as a user selects it.
    static let modes: [[String]] = [[], ["--no-cache"], ["--isolate"], ["--no-isolate"], ["--no-cache", "--isolate"], ["--no-cache", "--no-isolate"]]

    @Test("A stranger that takes a bundled plugin's name is refused in one line naming both files, in every mode", arguments: modes)
    func thiefRefused(_ mode: [String]) async throws {
        let (directory, empty) = try await Self.folder([Self.thief])
        // A fetch scans a new stranger only for the next run: the user's earlier run did.
        try await CommandRunner.scanned(directory)
        let cache = CommandRunner.userEnvironment(of: directory)
        // Twice: the second run lists the plugins from the registry cache the first wrote.
        for _ in 0..<2 {
            let output = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", "file://\(empty.path)"] + mode, environment: cache, in: directory)
            #expect(output.status == 1, "\(output.stderr)")
            #expect(output.stdout == "")
            #expect(output.stderrLines.first == Self.refusal(directory, file: "libthief.so", name: "BitstampPlugin", holder: "Bitstamp"), "\(output.stderr)")
            #expect(output.stderrLines.count == 3, "\(output.stderr)")
            #expect(!output.stderr.contains("1.00"))
        }
    }

    /// Each selector by name, which once reached the thief.
    static let selectors: [(String, [String], [String: String])] = [
        ("HOST_RANKS", [], ["HOST_RANKS": "BitstampPlugin:300"]),
        ("--source", ["--source", "BitstampPlugin"], [:]),
        ("--api-base-url PLUGIN=URL", ["--api-base-url", "BitstampPlugin=file:///"], [:]),
    ]

    @Test("No selector by name reaches the thief: the vouched plugin of that name is the only one it selects", arguments: selectors)
    func selectorsByName(_ selector: (String, [String], [String: String])) async throws {
        let (_, flags, environment) = selector
        let (directory, empty) = try await Self.folder([Self.thief])
        try await CommandRunner.scanned(directory, environment: environment)
        let output = try await CommandRunner.host(
            ["fetch", "ETH", "--api-base-url", "file://\(empty.path)"] + flags, asUserOf: directory, environment: environment)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout == "")
        #expect(output.stderrLines.first == Self.refusal(directory, file: "libthief.so", name: "BitstampPlugin", holder: "Bitstamp"))
        let listing = try await CommandRunner.host(["list-fetchers"] + flags.filter { $0 != "--source" && $0 != "BitstampPlugin" }, asUserOf: directory, environment: environment)
        #expect(!listing.stdout.contains("unvouched"), "\(listing.stdout)")
    }

    @Test("Strangers named EthereumPlugin and BitcoinPlugin are refused; JSON names only vouched sources, with path and vouchedBy")
    func thievesInJSON() async throws {
        let (directory, empty) = try await Self.folder([
            Self.stranger("libeth.so", name: "EthereumPlugin", amount: "5.00"), Self.stranger("libbtc.so", name: "BitcoinPlugin", symbol: "BTC", amount: "5.00"),
        ])
        try await CommandRunner.scanned(directory)
        let output = try await CommandRunner.host(["fetch", "ETH", "BTC", "--api-base-url", "file://\(empty.path)", "--format", "json"], asUserOf: directory)
        #expect(output.status == 1)
        #expect(!output.stdout.contains("5.00"))
        #expect(output.stderrLines.contains(Self.refusal(directory, file: "libeth.so", name: "EthereumPlugin", holder: "Ethereum")))
        #expect(output.stderrLines.contains(Self.refusal(directory, file: "libbtc.so", name: "BitcoinPlugin", holder: "Bitcoin")))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        let attempts = try #require(rows.first?["attempts"] as? [[String: String]])
        #expect(attempts.map { $0["plugin"] } == ["EthereumPlugin", "BitstampPlugin"])
        #expect(attempts.map { $0["vouchedBy"] } == ["bundled", "bundled"])
        #expect(attempts.map { $0["path"] } == [FixturePlugins.bundledPlugin("Ethereum").path, FixturePlugins.bundledPlugin("Bitstamp").path])
    }

    @Test("A name that could pass for a host row is refused with one line that says why; no fake median row")
    func badName() async throws {
        let (directory, empty) = try await Self.folder([Self.badName])
        try await CommandRunner.scanned(directory)
        let output = try await CommandRunner.host(["fetch", "ETH", "--all-sources", "--api-base-url", "file://\(empty.path)"], asUserOf: directory)
        #expect(output.stdout == "")
        #expect(output.stderrLines.first == "host: warning: skipping \(directory.path)/plugins/libbadname.so: refused: the descriptor's name "
            + #""median of 3, spread 0.00%" is not 1 to 64 ASCII letters, digits, '.', '_' or '-'; fix the plugin's pb_plugin_descriptor"#, "\(output.stderr)")
        #expect(!output.stderr.contains("9.00"))
    }

    @Test("Two files of one stranger never look alike: each is shown with its file, and addressed by it")
    func strangersByFile() async throws {
        let one = Self.stranger("libone.so", name: "DogeStranger", symbol: "DOGE", amount: "1.00")
        let two = Self.stranger("libtwo.so", name: "DogeStranger", symbol: "DOGE", amount: "2.00")
        let (directory, _) = try await Self.folder([one, two])
        let plugins = directory.appending(path: "plugins").path
        let listing = try await CommandRunner.host(["list-fetchers"], in: directory)
        // Columns apart, whatever their widths.
        let cells = listing.stdout.split(separator: "\n").map { $0.replacing(#/ {2,}/#, with: "|") }
        #expect(cells.contains("DOGE|Dogecoin (C)|DogeStranger (unvouched, \(plugins)/libone.so)|128|yes"), "\(listing.stdout)")
        #expect(cells.contains("DOGE|Dogecoin (C)|DogeStranger (unvouched, \(plugins)/libtwo.so)|128|-"), "\(listing.stdout)")
        #expect(Set(cells).count == cells.count, "\(listing.stdout)")
        let json = try await CommandRunner.host(["list-fetchers", "--format", "json"], in: directory)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]).filter { $0["symbol"] as? String == "DOGE" }
        #expect(rows.map { $0["path"] as? String } == ["\(plugins)/libone.so", "\(plugins)/libtwo.so"])
        #expect(rows.map { $0["vouchedBy"] as? String } == ["nobody", "nobody"])

        let byFile = try await CommandRunner.host(["fetch", "DOGE", "--source", "./plugins/libtwo.so"], in: directory)
        #expect(byFile.status == 0, "\(byFile.stderr)")
        #expect(byFile.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nDOGE    USD       2.00    DogeStranger (unvouched, \(plugins)/libtwo.so)\n")

        let byName = try await CommandRunner.host(["fetch", "DOGE", "--source", "DogeStranger"], in: directory)
        #expect(byName.status == 1, "\(byName.stderr)")
        #expect(byName.stdout == "")
        #expect(byName.stderrLines == [
            "host: error: DOGE: no source named DogeStranger provides DOGE; pass --source with one of its sources: \(plugins)/libone.so, \(plugins)/libtwo.so "
                + "(a name selects only plugins someone vouched for; any other is named by its file)",
        ])
    }

    @Test("A stranger ranked by its file stays capped at secondary: the cap applies after the override")
    func capAfterOverride() async throws {
        let (directory, _) = try await Self.folder([Self.stranger("libone.so", name: "DogeStranger", symbol: "DOGE")])
        let listing = try await CommandRunner.host(["list-fetchers", "--format", "json"], environment: ["HOST_RANKS": "./plugins/libone.so:300"], in: directory)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]]).filter { $0["symbol"] as? String == "DOGE" }
        #expect(rows.map { $0["rank"] as? Int } == [128])
        let lowered = try await CommandRunner.host(["list-fetchers", "--format", "json"], environment: ["HOST_RANKS": "./plugins/libone.so:64"], in: directory)
        let lowRows = try #require(try JSONSerialization.jsonObject(with: Data(lowered.stdout.utf8)) as? [[String: Any]]).filter { $0["symbol"] as? String == "DOGE" }
        #expect(lowRows.map { $0["rank"] as? Int } == [64])
    }

    @Test("A base given by name is not a stranger's; one given by its file is")
    func baseByFile() async throws {
        let (directory, empty) = try await Self.folder([Self.stranger("libone.so", name: "DogeStranger", symbol: "DOGE")])
        func base(_ entry: String) async throws -> String? {
            let output = try await CommandRunner.host(["list-plugins", "--format", "json", "--api-base-url", entry], in: directory)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
            return rows.first { $0["name"] as? String == "DogeStranger" }?["apiBaseURL"] as? String
        }
        #expect(try await base("DogeStranger=file://\(empty.path)") == "https://api.coinbase.com")
        #expect(try await base("./plugins/libone.so=file://\(empty.path)") == "file://\(empty.path)")
    }

    /// Each way of naming `./plugins` to `lock-plugins`, relative to the working directory.
    static let spellings: [(String, [String], [String: String])] = [
        ("--plugins-dir plugins", ["--plugins-dir", "plugins"], [:]),
        ("--plugins-dir plugins/", ["--plugins-dir", "plugins/"], [:]),
        ("--plugins-dir empty/../plugins", ["--plugins-dir", "empty/../plugins"], [:]),
        ("HOST_PLUGINS_DIR=plugins", [], ["HOST_PLUGINS_DIR": "plugins"]),
        ("the absolute path", ["--plugins-dir", "ABSOLUTE"], [:]),
    ]

    @Test("lock-plugins leaves ./plugins out however it is named", arguments: spellings)
    func lockPluginsLeavesWorkingPluginsOut(_ spelling: (String, [String], [String: String])) async throws {
        let (_, flags, environment) = spelling
        let (directory, _) = try await Self.folder([Self.stranger("libone.so", name: "DogeStranger", symbol: "DOGE")])
        let arguments = flags.map { $0 == "ABSOLUTE" ? directory.appending(path: "plugins").path : $0 }
        let store = ["XDG_CONFIG_HOME": try TemporaryDirectory.make().path]
        let lock = try await CommandRunner.host(["lock-plugins"] + arguments, environment: environment.merging(store) { $1 }, in: directory)
        #expect(lock.status == 0, "\(lock.stderr)")
        #expect(lock.stdout.hasPrefix("left out "), "\(lock.stdout)")
        #expect(lock.stdout.contains("libone.so: it is in ./plugins, which whoever gave you this folder could have filled"), "\(lock.stdout)")
        #expect(!lock.stdout.contains("vouched for"), "\(lock.stdout)")
        let plugins = try await CommandRunner.host(["list-plugins", "--format", "json"] + arguments, environment: environment.merging(store) { $1 }, in: directory)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(plugins.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["vouchedBy"] as? String } == ["nobody"])
    }
}
