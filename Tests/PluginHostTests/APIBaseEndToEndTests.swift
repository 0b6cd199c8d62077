import Foundation
import Testing

/// Each plugin fetches only under its own API base, through the `host`
/// executable with its defaults, in-process and in workers: the user's base
/// for it by file (by name only for a vouched plugin), or for every plugin,
/// or the one it declares when someone vouched for it.
@Suite("An API base per plugin, end to end", .timeLimit(.minutes(5)))
struct APIBaseEndToEndTests {
    /// Where each plugin runs, whatever vouches for it.
    static let modes: [[String]] = [["--no-isolate"], ["--isolate"]]

    /// A C plugin for `symbol` whose name is `name`, built with `defines` too.
    static func plugin(_ name: String, _ symbol: String, _ defines: [String] = []) -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(
            fileName: "lib\(name).so", defines: ["-DFIXTURE_NAME=\"\(name)\"", "-DFIXTURE_SYMBOL=\"\(symbol)\""] + defines)
    }

    static func spot(_ symbol: String, _ amount: String) -> LoopbackPriceServer.Reply {
        .respond(status: 200, body: #"{"data":{"base":"\#(symbol)","currency":"USD","amount":"\#(amount)"}}"#)
    }

    @Test("One plugin's base never lets another fetch there", arguments: modes)
    func basesAreSeparate(flags: [String]) async throws {
        let alphaServer = try await LoopbackPriceServer(routes: ["/v2/prices/AAA-USD/spot": Self.spot("AAA", "1.50")])
        let betaServer = try await LoopbackPriceServer(routes: [:])
        // Beta asks under Alpha's base, which only Alpha was given.
        let beta = Self.plugin("BetaPlugin", "BBB", ["-DFIXTURE_FETCH_BASE=\"\(alphaServer.baseURL)\""])
        let directory = try await FixturePlugins.directory(containing: [Self.plugin("AlphaPlugin", "AAA"), beta])

        let output = try await CommandRunner.host(
            ["fetch", "AAA", "BBB", "--plugins-dir", directory.path, "--api-base-url", "\(directory.path)/libAlphaPlugin.so=\(alphaServer.baseURL)",
             "--api-base-url", "\(directory.path)/libBetaPlugin.so=\(betaServer.baseURL)"] + flags)
        let (alphaRequests, betaRequests) = (alphaServer.requests, betaServer.requests)
        await alphaServer.stop()
        await betaServer.stop()

        #expect(output.status == 1)
        #expect(output.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nAAA     USD       1.50    AlphaPlugin (unvouched, \(directory.path)/libAlphaPlugin.so)\n")
        let url = "\(alphaServer.baseURL)/v2/prices/BBB-USD/spot"
        let refusal = "refused http_get of \(url): it is outside the URLs plugins may fetch (\(betaServer.baseURL)); to allow it, pass --allow-url \(url)"
        #expect(output.stderrLines == ["host: warning: plugin BetaPlugin: \(refusal)", "host: error: BBB: request failed: \(refusal)"])
        #expect(alphaRequests == ["/v2/prices/AAA-USD/spot"])
        #expect(betaRequests.isEmpty)
    }

    @Test("A declared base is refused, with the fix, until someone vouches for the plugin", arguments: modes)
    func declaredBase(flags: [String]) async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/GGG-USD/spot": Self.spot("GGG", "7.25")])
        let gamma = Self.plugin("GammaPlugin", "GGG", ["-DFIXTURE_API_BASE=\"\(server.baseURL)\""])
        let directory = try await FixturePlugins.directory(containing: [gamma])
        let common = ["--plugins-dir", directory.path] + flags
        // One trust store for every run: `lock-plugins` vouches there.
        let store = ["XDG_CONFIG_HOME": try TemporaryDirectory.make().path]

        let refused = try await CommandRunner.host(["fetch", "GGG"] + common, environment: store)
        let listed = try await CommandRunner.host(["list-plugins"] + common, environment: store)
        #expect(try await CommandRunner.host(["lock-plugins", "--plugins-dir", directory.path], environment: store).status == 0)
        let vouched = try await CommandRunner.host(["fetch", "GGG"] + common, environment: store)
        let vouchedList = try await CommandRunner.host(["list-plugins", "--format", "json"] + common, environment: store)
        let requests = server.requests
        await server.stop()

        let url = "\(server.baseURL)/v2/prices/GGG-USD/spot"
        // Nobody vouched for it: the user names it by its file.
        let file = "\(directory.path)/libGammaPlugin.so"
        let refusal = "refused http_get of \(url): it is under \(server.baseURL), the API base GammaPlugin declares, and nobody vouched for GammaPlugin; "
            + "to let it fetch there, pass --api-base-url \(file)=\(server.baseURL), run `host allow` on its file (it stays sandboxed), "
            + "or vouch for the plugin with `host trust`"
        #expect(refused.status == 1)
        #expect(refused.stderrLines == ["host: warning: plugin GammaPlugin: \(refusal)", "host: error: GGG: request failed: \(refusal)"])
        #expect(listed.stdout.hasSuffix(
            "\nWhere plugins may fetch:\n  GammaPlugin: nothing; not \(server.baseURL), which it declares and nobody vouched for: "
                + "pass --api-base-url \(file)=\(server.baseURL), or run `host allow \(file)`\n"), "\(listed.stdout)")

        #expect(vouched.status == 0, "\(vouched.stderr)")
        #expect(vouched.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nGGG     USD       7.25    GammaPlugin\n")
        #expect(requests == ["/v2/prices/GGG-USD/spot"])
        let row = try #require(try HostFixtures.pluginRows(vouchedList.stdout)["libGammaPlugin.so"])
        #expect(row["apiBaseURL"] as? String == server.baseURL)
        #expect(row["apiBaseOrigin"] as? String == "declared")
        #expect(row["allowedURLs"] as? [String] == [server.baseURL])
        #expect(row["withheldAPIBaseURL"] == nil)
    }

    @Test("A bare --api-base-url is every plugin's, over what each declares; PLUGIN=URL over both", arguments: modes)
    func precedence(flags: [String]) async throws {
        let declared = try await LoopbackPriceServer(routes: [:])
        let everyone = try await LoopbackPriceServer(routes: ["/v2/prices/GGG-USD/spot": Self.spot("GGG", "1"), "/v2/prices/DDD-USD/spot": Self.spot("DDD", "2")])
        let named = try await LoopbackPriceServer(routes: ["/v2/prices/NNN-USD/spot": Self.spot("NNN", "3")])
        let directory = try await FixturePlugins.directory(containing: [
            Self.plugin("GammaPlugin", "GGG", ["-DFIXTURE_API_BASE=\"\(declared.baseURL)\""]),
            Self.plugin("DeltaPlugin", "DDD"),
            Self.plugin("NamedPlugin", "NNN", ["-DFIXTURE_API_BASE=\"\(declared.baseURL)\""]),
        ])

        let output = try await CommandRunner.host(
            ["fetch", "GGG", "DDD", "NNN", "--plugins-dir", directory.path, "--api-base-url", "\(directory.path)/libNamedPlugin.so=\(named.baseURL)",
             "--api-base-url", everyone.baseURL] + flags)
        let listed = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", directory.path, "--api-base-url", "\(directory.path)/libNamedPlugin.so=\(named.baseURL)",
             "--api-base-url", everyone.baseURL] + flags)
        let declaredRequests = declared.requests
        for server in [declared, everyone, named] { await server.stop() }

        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            SYMBOL  CURRENCY  AMOUNT  PLUGIN
            GGG     USD       1       GammaPlugin (unvouched, \(directory.path)/libGammaPlugin.so)
            DDD     USD       2       DeltaPlugin (unvouched, \(directory.path)/libDeltaPlugin.so)
            NNN     USD       3       NamedPlugin (unvouched, \(directory.path)/libNamedPlugin.so)

            """)
        #expect(declaredRequests.isEmpty)
        let rows = try HostFixtures.pluginRows(listed.stdout)
        #expect(rows["libGammaPlugin.so"]?["apiBaseOrigin"] as? String == "every-plugin")
        #expect(rows["libNamedPlugin.so"]?["apiBaseOrigin"] as? String == "named")
        #expect(rows["libNamedPlugin.so"]?["apiBaseURL"] as? String == named.baseURL)
    }

    @Test("A base that cannot be one is one usage line, exit 64", arguments: [
        (["--api-base-url", "=https://a.test"], [:],
         "--api-base-url '=https://a.test' names no plugin before '='; give PLUGIN=URL, e.g. BitstampPlugin=https://www.bitstamp.net, or a URL for every plugin"),
        (["--api-base-url", "P=https://a.test", "--api-base-url", "P=https://b.test"], [:],
         "--api-base-url gives P two bases, 'https://a.test' and 'https://b.test'; give it one"),
        (["--api-base-url", "https://a.test", "--api-base-url", "https://b.test"], [:],
         "--api-base-url gives every plugin two bases, 'https://a.test' and 'https://b.test'; give one, and PLUGIN=URL for a plugin of its own"),
        (["--api-base-url", "P=ftp://a.test"], [:],
         "--api-base-url 'ftp://a.test' is not an http, https or file URL; use e.g. https://api.coinbase.com or file://$PWD/Fixtures/coinbase"),
        ([], ["HOST_API_BASE_URL": "P=https://a.test/?k=1"],
         "HOST_API_BASE_URL 'https://a.test/?k=1' has a query; a prefix is a scheme, a host and a path; plugins may fetch only under it, so give a plain base such as https://api.coinbase.com"),
    ])
    func badBase(arguments: [String], environment: [String: String], message: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers"] + arguments, environment: environment)
        #expect(output.status == 64)
        // argument-parser's "Error: " today; "host: error: " once the command layer words every usage error itself.
        #expect(["Error: \(message)", "host: error: \(message)"].contains(output.stderrLines.first ?? ""), "\(output.stderr)")
    }
}
