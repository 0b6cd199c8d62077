import Foundation
import Testing

/// `http_get` is a capability, through the `host` executable, in a sandboxed
/// worker (as a user runs it) and in-process: a C plugin asks for what it must not fetch, one fetcher
/// per attack (Tests/Fixtures/CPlugins/http_attacks.c), and each gets
/// exactly the refusal, with the host's warning naming it and the URL.
@Suite("What a plugin may fetch, end to end", .timeLimit(.minutes(10)))
struct URLPolicyEndToEndTests {
    static let attacks = FixturePlugins.Fixture(fileName: "http-attacks.so", source: "Tests/Fixtures/CPlugins/http_attacks.c")

    /// ``attacks`` with PORT aiming at `other`, compiled in: an isolated
    /// worker sees none of the test's environment.
    static func attacks(otherURL other: String) -> FixturePlugins.Fixture {
        FixturePlugins.Fixture(fileName: "http-attacks.so", source: "Tests/Fixtures/CPlugins/http_attacks.c", defines: ["-DHTTP_ATTACKS_OTHER_URL=\"\(other)\""])
    }

    static let modes = CommandRunner.fixturePlacements

    /// A file base, `base`, with `v2/prices/LINK-USD/spot` a symbolic link to
    /// a spot price outside it, which a host that followed it would print.
    struct FileBase {
        let base: URL
        let secret: URL

        init() throws {
            let directory = try TemporaryDirectory.make()
            base = directory.appending(path: "base")
            let outside = directory.appending(path: "outside")
            let link = base.appending(path: "v2/prices/LINK-USD")
            try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            secret = outside.appending(path: "secret.json")
            try Data(#"{"data":{"base":"SYMLINK","currency":"USD","amount":"666.00"}}"#.utf8).write(to: secret)
            try FileManager.default.createSymbolicLink(atPath: link.appending(path: "spot").path, withDestinationPath: secret.path)
        }

        var url: String { "file://\(base.path)" }
    }

    static func spot(_ amount: String) -> String { #"{"data":{"base":"X","currency":"USD","amount":"\#(amount)"}}"# }

    /// The two lines one refusal makes: the host's warning and the fetch error.
    static func refused(_ symbol: String, _ refusal: String) -> [String] {
        ["host: warning: plugin HTTPAttacksPlugin: \(refusal)", "host: error: \(symbol): \(refusal)"]
    }

    @Test("file:///etc/passwd, '..' out of a file base and a symbolic link out of it are refused", arguments: modes)
    func fileAttacks(flags: [String]) async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attacks])
        let files = try FileBase()

        let output = try await CommandRunner.host(
            ["fetch", "PASSWD", "DOTDOT", "SYMLINK", "--plugins-dir", directory.path, "--api-base-url", files.url] + flags)

        #expect(output.status == 1)
        #expect(output.stdout == "")
        let base = files.base.path
        let expected =
            Self.refused(
                "PASSWD",
                "refused http_get of file:///etc/passwd: it is outside the URLs plugins may fetch (\(files.url)); to allow it, pass --allow-url file:///etc/passwd"
            )
            + Self.refused("DOTDOT", "refused http_get of \(files.url)/../outside/secret.json: it has a '..' path segment")
            + Self.refused(
                "SYMLINK", "refused http_get of \(files.url)/v2/prices/LINK-USD/spot: it leads out of \(base), through '..' or a symbolic link")
        #expect(output.stderrLines.sorted() == expected.sorted())
    }

    @Test("Another port on 127.0.0.1, and redirects to another port or out of the base path, are refused; nothing reaches them", arguments: modes)
    func loopbackAttacks(flags: [String]) async throws {
        let other = try await LoopbackPriceServer(routes: ["/": .respond(status: 200, body: Self.spot("999.00"))])
        let api = try await LoopbackPriceServer(routes: [
            "/api/v2/redirect-port": .redirect(to: other.baseURL + "/"),
            "/api/v2/redirect-path": .redirect(to: "/admin"),
            "/admin": .respond(status: 200, body: Self.spot("999.00")),
        ])
        let directory = try await FixturePlugins.directory(containing: [Self.attacks(otherURL: other.baseURL + "/")])
        let base = api.baseURL + "/api"

        let output = try await CommandRunner.host(
            ["fetch", "PORT", "HOPPORT", "HOPPATH", "--plugins-dir", directory.path, "--api-base-url", base] + flags)
        let otherRequests = other.requests
        let apiRequests = api.requests
        await other.stop()
        await api.stop()

        #expect(output.status == 1)
        #expect(output.stdout == "")
        let outside = "it is outside the URLs plugins may fetch (\(base))"
        let expected =
            Self.refused("PORT", "refused http_get of \(other.baseURL)/: \(outside); to allow it, pass --allow-url \(other.baseURL)/")
            + Self.refused(
                "HOPPORT",
                "refused http_get of \(base)/v2/redirect-port: it redirects to \(other.baseURL)/, and \(outside); to allow it, pass --allow-url \(other.baseURL)/"
            )
            + Self.refused(
                "HOPPATH",
                "refused http_get of \(base)/v2/redirect-path: it redirects to \(api.baseURL)/admin, and \(outside); to allow it, pass --allow-url \(api.baseURL)/admin"
            )
        #expect(output.stderrLines.sorted() == expected.sorted())
        #expect(otherRequests.isEmpty, "the other port saw \(otherRequests)")
        #expect(apiRequests.sorted() == ["/api/v2/redirect-path", "/api/v2/redirect-port"])
    }

    @Test("--allow-url grants a prefix: the other port and a redirect to it are fetched, and list-plugins records it", arguments: modes)
    func grant(flags: [String]) async throws {
        let other = try await LoopbackPriceServer(routes: ["/": .respond(status: 200, body: Self.spot("999.00"))])
        let api = try await LoopbackPriceServer(routes: ["/api/v2/redirect-port": .redirect(to: other.baseURL + "/")])
        let directory = try await FixturePlugins.directory(containing: [Self.attacks(otherURL: other.baseURL + "/")])
        let base = api.baseURL + "/api"
        let common = ["--plugins-dir", directory.path, "--api-base-url", base, "--allow-url", other.baseURL + "/"] + flags

        let fetched = try await CommandRunner.host(["fetch", "PORT", "HOPPORT", "--format", "json"] + common)
        let listed = try await CommandRunner.host(["list-plugins", "--format", "json"] + common)
        let table = try await CommandRunner.host(["list-plugins"] + common)
        let otherRequests = other.requests
        await other.stop()
        await api.stop()

        #expect(fetched.status == 0, "\(fetched.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8)) as? [[String: String]] ?? []
        #expect(rows.map { $0["amount"] } == ["999.00", "999.00"])
        #expect(otherRequests == ["/", "/"])
        #expect(try HostFixtures.pluginRows(listed.stdout)["http-attacks.so"]?["allowedURLs"] as? [String] == [base, other.baseURL + "/"])
        #expect(table.stdout.hasSuffix("\nPlugins may fetch only under: \(base), \(other.baseURL)/\n"))
    }

    @Test("HOST_ALLOW_URLS grants prefixes too, separated by spaces")
    func environmentGrant() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.attacks])
        let listed = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase],
            environment: ["HOST_ALLOW_URLS": "https://a.test/v1  file:///srv/prices"])
        #expect(listed.status == 0)
        #expect(
            try HostFixtures.pluginRows(listed.stdout)["http-attacks.so"]?["allowedURLs"] as? [String]
                == [HostFixtures.coinbase, "https://a.test/v1", "file:///srv/prices"])
    }

    @Test("A prefix that cannot be granted is one usage line, exit 64", arguments: [
        (["--allow-url", "https://user@a.test/"], [:], "host: error: --allow-url 'https://user@a.test/' has a user name or password (user@host), which the host never sends; give a prefix such as https://api.example.com/v2 or file:///srv/prices"),
        (["--allow-url", "file:///srv/../etc"], [:], "host: error: --allow-url 'file:///srv/../etc' has a '..' path segment; give a prefix such as https://api.example.com/v2 or file:///srv/prices"),
        ([], ["HOST_ALLOW_URLS": "https://a.test/?k=1"], "host: error: HOST_ALLOW_URLS 'https://a.test/?k=1' has a query; a prefix is a scheme, a host and a path; give a prefix such as https://api.example.com/v2 or file:///srv/prices"),
        (["--api-base-url", "https://user@a.test"], [:], "host: error: --api-base-url 'https://user@a.test' has a user name or password (user@host), which the host never sends; plugins may fetch only under it, so give a plain base such as https://api.coinbase.com"),
    ])
    func badPrefix(arguments: [String], environment: [String: String], line: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers"] + arguments, environment: environment)
        #expect(output.status == 64)
        #expect(output.stderrLines.first == line)
    }
}
