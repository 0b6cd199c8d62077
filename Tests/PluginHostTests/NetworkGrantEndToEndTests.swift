import Foundation
import Testing

/// `host allow FILE [--url URL]` and `host disallow FILE`, through the `host`
/// executable with its defaults (registry cache on, plugins placed by
/// trust): a plugin nobody vouched for fetches under the base it declares
/// once allowed, still in its sandboxed worker; only that file, only while
/// it is the file granted, and only under that base.
@Suite("A network grant that keeps the sandbox, end to end", .timeLimit(.minutes(5)))
struct NetworkGrantEndToEndTests {
    /// One configuration and one cache directory for every run of a test, as a user has.
    static func userDirectories() throws -> [String: String] {
        ["XDG_CONFIG_HOME": try TemporaryDirectory.make().path, "XDG_CACHE_HOME": try TemporaryDirectory.make().path]
    }

    @Test("A stranger fetches under its declared base only while allowed, and only while its file is the one allowed")
    func allowThenDisallowThenChange() async throws {
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/GGG-USD/spot": APIBaseEndToEndTests.spot("GGG", "7.25"),
            "/v2/prices/DDD-USD/spot": APIBaseEndToEndTests.spot("DDD", "1.00"),
        ])
        let declares = ["-DFIXTURE_API_BASE=\"\(server.baseURL)\""]
        // Delta declares the same base from another file: a grant is for one file.
        let directory = try await FixturePlugins.directory(containing: [
            APIBaseEndToEndTests.plugin("GammaPlugin", "GGG", declares), APIBaseEndToEndTests.plugin("DeltaPlugin", "DDD", declares),
        ])
        let real = directory.resolvingSymlinksInPath().path
        let gamma = "\(real)/libGammaPlugin.so"
        let environment = try Self.userDirectories()
        let common = ["--plugins-dir", real]
        func host(_ arguments: [String]) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments, environment: environment)
        }

        let before = try await host(["fetch", "GGG"] + common)
        let allowed = try await host(["allow", gamma])
        let fetched = try await host(["fetch", "GGG", "DDD"] + common)
        let listed = try await host(["list-plugins", "--format", "json"] + common)
        let table = try await host(["list-plugins"] + common)
        let inspected = try await host(["inspect", gamma])
        let disallowed = try await host(["disallow", gamma])
        let afterDisallow = try await host(["fetch", "GGG"] + common)
        #expect(try await host(["allow", gamma]).status == 0)
        let handle = try FileHandle(forWritingTo: URL(filePath: gamma))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("changed".utf8))
        try handle.close()
        let afterChange = try await host(["fetch", "GGG"] + common)
        let changedList = try await host(["list-plugins", "--format", "json"] + common)
        let requests = server.requests
        await server.stop()

        let refusal = "refused http_get of \(server.baseURL)/v2/prices/GGG-USD/spot: it is under \(server.baseURL), the API base GammaPlugin declares, "
            + "and nobody vouched for GammaPlugin; to let it fetch there, pass --api-base-url \(gamma)=\(server.baseURL), "
            + "run `host allow` on its file (it stays sandboxed), or vouch for the plugin with `host trust`"
        #expect(before.status == 1)
        #expect(before.stderrLines.last == "host: error: GGG: request failed: \(refusal)")

        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.isEmpty)
        #expect(allowed.stdout.hasPrefix("allowed \(gamma) (SHA-256 "), "\(allowed.stdout)")
        #expect(allowed.stdout.hasSuffix(
            ") to fetch under \(server.baseURL): it still runs in a sandboxed worker (nobody vouched for it)\n"), "\(allowed.stdout)")

        // Gamma fetches; Delta, which declares the same base from another file, is still refused.
        #expect(fetched.status == 1)
        #expect(fetched.stdout == "SYMBOL  CURRENCY  AMOUNT  PLUGIN\nGGG     USD       7.25    GammaPlugin (unvouched, \(gamma))\n", "\(fetched.stderr)")
        #expect(fetched.stderrLines.last?.hasPrefix("host: error: DDD: request failed: refused http_get of \(server.baseURL)/v2/prices/DDD-USD/spot") == true,
            "\(fetched.stderr)")

        let rows = try HostFixtures.pluginRows(listed.stdout)
        let row = try #require(rows["libGammaPlugin.so"])
        #expect(row["mode"] as? String == "isolated")
        #expect(row["vouchedBy"] as? String == "nobody")
        #expect(row["allowedURLs"] as? [String] == [server.baseURL])
        #expect(row["withheldAPIBaseURL"] == nil)
        #expect(row["granted"] as? [String: String] == ["url": server.baseURL, "status": "matches"])
        #expect(rows["libDeltaPlugin.so"]?["granted"] == nil)
        #expect(rows["libDeltaPlugin.so"]?["withheldAPIBaseURL"] as? String == server.baseURL)
        #expect(table.stdout.hasSuffix("\nNetwork grants (host allow):\n  \(gamma): may fetch under \(server.baseURL)\n"), "\(table.stdout)")
        #expect(inspected.stdout.contains("\n  Network       may fetch under \(server.baseURL); \(server.baseURL) granted by `host allow`\n"), "\(inspected.stdout)")

        #expect(disallowed.status == 0, "\(disallowed.stderr)")
        #expect(disallowed.stdout == "disallowed \(gamma): it may no longer fetch under \(server.baseURL); it still runs in a sandboxed worker (nobody vouched for it)\n")
        #expect(afterDisallow.status == 1)
        #expect(afterDisallow.stderrLines.last == "host: error: GGG: request failed: \(refusal)")

        // A changed file is not the one allowed: refused again, and the listing says why.
        #expect(afterChange.status == 1)
        #expect(afterChange.stderrLines.last == "host: error: GGG: request failed: \(refusal)", "\(afterChange.stderr)")
        let changed = try #require(try HostFixtures.pluginRows(changedList.stdout)["libGammaPlugin.so"])
        #expect(changed["granted"] as? [String: String] == ["url": server.baseURL, "status": "changed"])
        #expect(changed["allowedURLs"] as? [String] == [])

        #expect(requests == ["/v2/prices/GGG-USD/spot"])
    }

    @Test("An allowed plugin still cannot fetch outside its base: another port, or a redirect out of it")
    func allowedStaysUnderItsBase() async throws {
        let elsewhere = try await LoopbackPriceServer(routes: ["/v2/prices/PPP-USD/spot": APIBaseEndToEndTests.spot("PPP", "2.00")])
        let server = try await LoopbackPriceServer(routes: [
            "/api/v2/prices/RRR-USD/spot": .redirect(to: "\(elsewhere.baseURL)/v2/prices/PPP-USD/spot"),
        ])
        let base = "\(server.baseURL)/api"
        let directory = try await FixturePlugins.directory(containing: [
            APIBaseEndToEndTests.plugin("PortPlugin", "PPP", ["-DFIXTURE_API_BASE=\"\(base)\"", "-DFIXTURE_FETCH_BASE=\"\(elsewhere.baseURL)\""]),
            APIBaseEndToEndTests.plugin("RedirectPlugin", "RRR", ["-DFIXTURE_API_BASE=\"\(base)\""]),
        ])
        let real = directory.resolvingSymlinksInPath().path
        let environment = try Self.userDirectories()
        var allowed: [Int32] = []
        for name in ["PortPlugin", "RedirectPlugin"] {
            allowed.append(try await CommandRunner.host(["allow", "\(real)/lib\(name).so"], environment: environment).status)
        }
        let fetched = try await CommandRunner.host(["fetch", "PPP", "RRR", "--plugins-dir", real], environment: environment)
        let (requests, elsewhereRequests) = (server.requests, elsewhere.requests)
        await server.stop()
        await elsewhere.stop()

        #expect(allowed == [0, 0])
        #expect(fetched.status == 1)
        let port = "refused http_get of \(elsewhere.baseURL)/v2/prices/PPP-USD/spot: it is outside the URLs plugins may fetch (\(base)); "
            + "to allow it, pass --allow-url \(elsewhere.baseURL)/v2/prices/PPP-USD/spot"
        let redirect = "refused http_get of \(base)/v2/prices/RRR-USD/spot: it redirects to \(elsewhere.baseURL)/v2/prices/PPP-USD/spot, "
            + "and it is outside the URLs plugins may fetch (\(base)); to allow it, pass --allow-url \(elsewhere.baseURL)/v2/prices/PPP-USD/spot"
        #expect(fetched.stderrLines.contains("host: error: PPP: request failed: \(port)"), "\(fetched.stderr)")
        #expect(fetched.stderrLines.contains("host: error: RRR: request failed: \(redirect)"), "\(fetched.stderr)")
        #expect(requests == ["/api/v2/prices/RRR-USD/spot"])
        #expect(elsewhereRequests.isEmpty)
    }

    @Test("A grant of another URL is that URL's, not the base the plugin declares")
    func grantOfAnotherURL() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/GGG-USD/spot": APIBaseEndToEndTests.spot("GGG", "7.25")])
        let directory = try await FixturePlugins.directory(containing: [
            APIBaseEndToEndTests.plugin("GammaPlugin", "GGG", ["-DFIXTURE_API_BASE=\"\(server.baseURL)\""]),
        ])
        let real = directory.resolvingSymlinksInPath().path
        let environment = try Self.userDirectories()
        let other = "http://127.0.0.1:9/other"
        let allowed = try await CommandRunner.host(["allow", "\(real)/libGammaPlugin.so", "--url", other], environment: environment)
        let fetched = try await CommandRunner.host(["fetch", "GGG", "--plugins-dir", real], environment: environment)
        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", real], environment: environment)
        let requests = server.requests
        await server.stop()

        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(fetched.status == 1)
        #expect(fetched.stderrLines.last?.contains("it is under \(server.baseURL), the API base GammaPlugin declares, and nobody vouched for GammaPlugin") == true,
            "\(fetched.stderr)")
        let row = try #require(try HostFixtures.pluginRows(listed.stdout)["libGammaPlugin.so"])
        #expect(row["allowedURLs"] as? [String] == [other])
        #expect(row["withheldAPIBaseURL"] as? String == server.baseURL)
        #expect(requests.isEmpty)
    }

    @Test("Grants others can write grant nothing, and are not written: the trust store's rules")
    func grantsOthersCanWrite() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/GGG-USD/spot": APIBaseEndToEndTests.spot("GGG", "7.25")])
        let directory = try await FixturePlugins.directory(containing: [
            APIBaseEndToEndTests.plugin("GammaPlugin", "GGG", ["-DFIXTURE_API_BASE=\"\(server.baseURL)\""]),
        ])
        let real = directory.resolvingSymlinksInPath().path
        let environment = try Self.userDirectories()
        let gamma = "\(real)/libGammaPlugin.so"
        #expect(try await CommandRunner.host(["allow", gamma], environment: environment).status == 0)
        let grants = "\(environment["XDG_CONFIG_HOME"]!)/patchbay/network-grants"
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: grants)
        let fetched = try await CommandRunner.host(["fetch", "GGG", "--plugins-dir", real], environment: environment)
        let allowed = try await CommandRunner.host(["allow", gamma], environment: environment)
        let requests = server.requests
        await server.stop()

        #expect(fetched.status == 1)
        #expect(fetched.stderrLines.first?.hasPrefix("host: warning: your network grants grant nothing until they are fixed: ") == true, "\(fetched.stderr)")
        #expect(fetched.stderrLines.first?.contains("so other users could let any plugin fetch anywhere") == true, "\(fetched.stderr)")
        #expect(allowed.status == 1)
        // The warning every command gives about such grants, then the one error line.
        #expect(allowed.stderrLines.count == 2, "\(allowed.stderr)")
        #expect(allowed.stderrLines.last?.hasPrefix("host: error: cannot change your network grants: refused (not writable by others): ") == true, "\(allowed.stderr)")
        #expect(requests.isEmpty)
    }

    @Test("Bad input to allow and disallow is one line, with a meaningful exit status")
    func badInput() async throws {
        let directory = try await FixturePlugins.directory(
            containing: [APIBaseEndToEndTests.plugin("PlainPlugin", "PLN")], extraFiles: ["libNotAPlugin.so": Data("not an ELF file\n".utf8)])
        let real = directory.resolvingSymlinksInPath().path
        let environment = try Self.userDirectories()
        func host(_ arguments: [String]) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments, environment: environment)
        }
        let bundled = CommandRunner.buildDirectory.appending(path: "libEthereumPlugin.so").resolvingSymlinksInPath().path

        let missing = try await host(["allow", "\(real)/libMissing.so"])
        let notAPlugin = try await host(["allow", "\(real)/libNotAPlugin.so"])
        let badURL = try await host(["allow", "\(real)/libPlainPlugin.so", "--url", "ftp://example.com/"])
        let noBase = try await host(["allow", "\(real)/libPlainPlugin.so"])
        let vouched = try await host(["allow", bundled])
        let notAllowed = try await host(["disallow", "\(real)/libPlainPlugin.so"])
        let withURL = try await host(["allow", "\(real)/libPlainPlugin.so", "--url", "http://127.0.0.1:9/prices"])

        for output in [missing, notAPlugin, noBase, vouched, notAllowed] {
            #expect(output.status == 1, "\(output.stderr)")
            #expect(output.stdout.isEmpty)
            #expect(output.stderrLines.count == 1, "\(output.stderr)")
        }
        #expect(missing.stderr == "host: error: not allowing \(real)/libMissing.so: there is no such file: check the path\n")
        #expect(notAPlugin.stderr.hasPrefix("host: error: not allowing \(real)/libNotAPlugin.so: "), "\(notAPlugin.stderr)")
        #expect(badURL.status == 64)
        #expect(badURL.stderr.contains("--url 'ftp://example.com/' is not an http, https or file URL"), "\(badURL.stderr)")
        #expect(noBase.stderr == "host: error: not allowing \(real)/libPlainPlugin.so: it declares no API base (api_base_url) to allow; "
            + "name the URL it may fetch under with --url URL\n")
        #expect(vouched.stderr == "host: error: \(bundled) needs no grant: it is bundled with the host, so it fetches under the API base it declares already; "
            + "--api-base-url gives it another\n")
        #expect(notAllowed.stderr == "host: error: \(real)/libPlainPlugin.so has no network grant, so there is nothing to take back; "
            + "it runs in a sandboxed worker (nobody vouched for it); `host list-plugins` shows what each plugin may fetch\n")
        #expect(withURL.status == 0, "\(withURL.stderr)")
        #expect(withURL.stdout.hasSuffix(") to fetch under http://127.0.0.1:9/prices: it still runs in a sandboxed worker (nobody vouched for it)\n"))
    }

    @Test("A declared base that reaches files or link-local addresses is granted only when the user names it with --url")
    func declaredBaseBeyondTheNetwork() async throws {
        let directory = try await FixturePlugins.directory(containing: [
            APIBaseEndToEndTests.plugin("FilesPlugin", "FLS", ["-DFIXTURE_API_BASE=\"file:///etc\""]),
            APIBaseEndToEndTests.plugin("MetadataPlugin", "MTA", ["-DFIXTURE_API_BASE=\"http://169.254.169.254/latest\""]),
            APIBaseEndToEndTests.plugin("DecimalPlugin", "DEC", ["-DFIXTURE_API_BASE=\"http://2852039166/\""]),
        ])
        let real = directory.resolvingSymlinksInPath().path
        let environment = try Self.userDirectories()
        func host(_ arguments: [String]) async throws -> CommandRunner.Output {
            try await CommandRunner.host(arguments, environment: environment)
        }
        let files = try await host(["allow", "\(real)/libFilesPlugin.so"])
        let metadata = try await host(["allow", "\(real)/libMetadataPlugin.so"])
        let decimal = try await host(["allow", "\(real)/libDecimalPlugin.so"])
        let listed = try await host(["list-plugins", "--format", "json", "--plugins-dir", real])
        let named = try await host(["allow", "\(real)/libFilesPlugin.so", "--url", "file://\(real)/"])

        let advice = "a plugin nobody vouched for is granted that only when you name the URL yourself: add --url URL if you mean it\n"
        #expect(files.status == 1)
        #expect(files.stdout.isEmpty)
        #expect(files.stderr == "host: error: not allowing \(real)/libFilesPlugin.so: it declares the API base file:///etc, which reaches files on this machine; " + advice)
        let linkLocal = "which reaches link-local addresses (where cloud machines serve their credentials); "
        #expect(metadata.status == 1)
        #expect(metadata.stderr == "host: error: not allowing \(real)/libMetadataPlugin.so: it declares the API base http://169.254.169.254/latest, " + linkLocal + advice)
        #expect(decimal.status == 1)
        #expect(decimal.stderr == "host: error: not allowing \(real)/libDecimalPlugin.so: it declares the API base http://2852039166, " + linkLocal + advice)
        // Nothing was recorded.
        for row in try HostFixtures.pluginRows(listed.stdout).values { #expect(row["granted"] == nil) }
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.hasSuffix(") to fetch under file://\(real)/: it still runs in a sandboxed worker (nobody vouched for it)\n"), "\(named.stdout)")
    }
}
