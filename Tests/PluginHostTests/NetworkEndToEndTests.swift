import Foundation
import NIOSSL
import Testing

/// The network path a real user takes, end to end through the built `host`:
/// HTTPS with a CA the test makes itself, CONNECT proxies, and rate limits.
/// Every server and proxy listens on 127.0.0.1, and nothing leaves it.
@Suite("The network path, end to end", .timeLimit(.minutes(10)))
struct NetworkEndToEndTests {
    static let path = "/v2/prices/ETH-USD/spot"
    static let spot = HostEndToEndTests.spot("ETH", "2718.281828459045235360287")
    static let loopback: [UInt8] = [127, 0, 0, 1]

    /// An HTTPS price server whose certificate `authority` issued.
    static func httpsServer(
        _ authority: TestCertificateAuthority, dnsNames: [String] = [], ipAddresses: [[UInt8]] = [loopback],
        validFrom: Date = Date() - 3600, validUntil: Date = Date() + 86400, hostName: String = "127.0.0.1"
    ) async throws -> LoopbackPriceServer {
        let tls = try authority.serverConfiguration(dnsNames: dnsNames, ipAddresses: ipAddresses, validFrom: validFrom, validUntil: validUntil)
        return try await LoopbackPriceServer(routes: [path: .respond(status: 200, body: spot)], tls: tls, hostName: hostName)
    }

    /// `host fetch ETH` against `server`, with `arguments` and `environment`
    /// added: one source, since the bundled Bitstamp plugin, ETH's second
    /// source, is never asked (`HOST_RANKS`).
    ///
    /// Unless `arguments` name a `--timeout` (a test of the timeout itself),
    /// the fetch gets ``hangGuard``: the host's default 10 s failed these
    /// tests at load 40, and none of them is about the time a fetch takes.
    static func fetch(
        _ server: LoopbackPriceServer, _ arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> CommandRunner.Output {
        let timeout = arguments.contains("--timeout") ? [] : ["--timeout", String(hangGuard.components.seconds)]
        return try await CommandRunner.host(
            ["fetch", "ETH", "--api-base-url", server.baseURL] + timeout + arguments,
            environment: ["HOST_RANKS": "BitstampPlugin:0"].merging(environment) { $1 })
    }

    /// The `--timeout` of a fetch whose time is not under test: a hang
    /// guard, over 10 times the slowest idle run (about 2 s, a TLS handshake
    /// and a retry's backoff included).
    static let hangGuard: Duration = .seconds(120)

    /// The one error line of a failed fetch, checked to be alone and free of NIO's type dumps.
    static func errorLine(_ output: CommandRunner.Output) -> String {
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(!output.stderr.contains("NIOSSL") && !output.stderr.contains("BoringSSL") && !output.stderr.contains(".swift"))
        return String(lines.first ?? "")
    }

    // MARK: - Trust

    @Test("An HTTPS server signed by a private CA is trusted through SSL_CERT_FILE")
    func trustedThroughSSLCertFile() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await Self.httpsServer(authority)
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server, environment: ["SSL_CERT_FILE": try authority.writePEM()])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(HostFixtures.ethRow))
    }

    @Test("An HTTPS server signed by a private CA is trusted through --ca-file, with or without the system's roots")
    func trustedThroughCAFile() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await Self.httpsServer(authority)
        defer { Task { await server.stop() } }
        let pem = try authority.writePEM()
        for extra in [[], ["--no-system-ca"]] {
            let output = try await Self.fetch(server, ["--ca-file", pem] + extra)
            #expect(output.status == 0, "\(extra): \(output.stderr)")
            #expect(output.stdout.contains(HostFixtures.ethRow))
        }
    }

    @Test("An untrusted certificate is one line naming the server, the reason and the fix")
    func untrusted() async throws {
        let server = try await Self.httpsServer(try TestCertificateAuthority())
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server)
        #expect(output.status == 1)
        let line = Self.errorLine(output)
        #expect(line.contains("the TLS certificate of 127.0.0.1:\(server.port) is not signed by a trusted certificate authority"), "\(line)")
        #expect(line.hasSuffix("; pass --ca-file PATH or set SSL_CERT_FILE to the CA certificate that signed it"), "\(line)")
    }

    @Test("A certificate of another CA than --ca-file's is refused when the system's roots are off")
    func otherAuthority() async throws {
        let server = try await Self.httpsServer(try TestCertificateAuthority())
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server, ["--ca-file", try TestCertificateAuthority(commonName: "Other CA").writePEM(), "--no-system-ca"])
        #expect(output.status == 1)
        #expect(Self.errorLine(output).hasSuffix("is not signed by a trusted certificate authority; pass --ca-file PATH with the CA certificate that signed it, or drop --no-system-ca"))
    }

    @Test("An expired certificate is one line that says when it expired")
    func expired() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await Self.httpsServer(authority, validFrom: Date() - 86400 * 30, validUntil: Date() - 86400)
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server, ["--ca-file", try authority.writePEM()])
        #expect(output.status == 1)
        let line = Self.errorLine(output)
        #expect(line.contains("the TLS certificate of 127.0.0.1:\(server.port) expired on "), "\(line)")
        #expect(line.hasSuffix(" UTC; the server must renew it; if it has, check this machine's clock"), "\(line)")
    }

    @Test("A certificate for another name is one line naming the name connected to")
    func wrongName() async throws {
        let authority = try TestCertificateAuthority()
        // Issued for localhost alone, and reached as 127.0.0.1.
        let server = try await Self.httpsServer(authority, dnsNames: ["localhost"], ipAddresses: [])
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server, ["--ca-file", try authority.writePEM()])
        #expect(output.status == 1)
        let line = Self.errorLine(output)
        #expect(line.contains("the TLS certificate of 127.0.0.1:\(server.port) is not valid for the name 127.0.0.1"), "\(line)")
        #expect(line.hasSuffix("; give --api-base-url a host name the certificate was issued for"), "\(line)")
    }

    // MARK: - Proxies

    @Test("HTTPS_PROXY tunnels with CONNECT to a name the host never resolves, with its credentials, and never prints them")
    func httpsProxy() async throws {
        let authority = try TestCertificateAuthority()
        // prices.test resolves nowhere: only the proxy knows where it is.
        let server = try await Self.httpsServer(authority, dnsNames: ["prices.test"], ipAddresses: [], hostName: "prices.test")
        defer { Task { await server.stop() } }
        let proxy = try LoopbackConnectProxy(names: ["prices.test"])
        defer { proxy.stop() }
        let proxyURL = "http://alice:s%3Acret@127.0.0.1:\(proxy.port)"
        let output = try await Self.fetch(server, ["-v"], environment: ["HTTPS_PROXY": proxyURL, "SSL_CERT_FILE": try authority.writePEM()])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(proxy.recorded == [.init(target: "prices.test:\(server.port)", user: "alice", password: "s:cret")])
        #expect(output.stderr.contains("through the proxy \(proxy.url) (from HTTPS_PROXY)"), "\(output.stderr)")
        #expect(!output.stderr.contains("cret") && !output.stdout.contains("cret"))
    }

    @Test("NO_PROXY that matches the API's host sends it directly, and -v says why")
    func noProxyMatches() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await Self.httpsServer(authority)
        defer { Task { await server.stop() } }
        let proxy = try LoopbackConnectProxy()
        defer { proxy.stop() }
        for noProxy in ["127.0.0.1", "example.com, 127.0.0.0/8", "*"] {
            let output = try await Self.fetch(
                server, ["-v", "--ca-file", try authority.writePEM()], environment: ["HTTPS_PROXY": proxy.url, "NO_PROXY": noProxy])
            #expect(output.status == 0, "\(noProxy): \(output.stderr)")
            #expect(output.stderr.contains("directly: NO_PROXY matches 127.0.0.1"), "\(output.stderr)")
        }
        #expect(proxy.recorded.isEmpty)
    }

    @Test("--proxy overrides HTTPS_PROXY, and --no-proxy turns every proxy off")
    func proxyFlags() async throws {
        let authority = try TestCertificateAuthority()
        let server = try await Self.httpsServer(authority)
        defer { Task { await server.stop() } }
        let proxy = try LoopbackConnectProxy()
        defer { proxy.stop() }
        let unused = try LoopbackConnectProxy()
        defer { unused.stop() }
        let pem = try authority.writePEM()

        let through = try await Self.fetch(server, ["--ca-file", pem, "--proxy", proxy.url], environment: ["HTTPS_PROXY": unused.url])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(proxy.recorded.map(\.target) == ["127.0.0.1:\(server.port)"])

        let direct = try await Self.fetch(server, ["--ca-file", pem, "--no-proxy"], environment: ["HTTPS_PROXY": proxy.url])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(proxy.recorded.count == 1)
        #expect(unused.recorded.isEmpty)
    }

    @Test("A proxy URL the host cannot use is refused before anything is loaded, without its password")
    func badProxy() async throws {
        let output = try await CommandRunner.host(["list-fetchers"], environment: ["HTTPS_PROXY": "socks5://bob:hunter2@127.0.0.1:1080"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("HTTPS_PROXY 'socks5://***@127.0.0.1:1080' uses socks5://, and only http:// proxies are supported"))
        #expect(!output.stderr.contains("hunter2"))
    }

    // MARK: - Rate limits and transient failures

    @Test("A 429 with Retry-After: 1 is waited out and asked again, visibly at -v")
    func retryAfterWaitedOut() async throws {
        let server = try await LoopbackPriceServer(routes: [
            Self.path: .sequence([
                .respondWithHeaders(status: 429, headers: ["Retry-After": "1"], body: #"{"errors":[{"id":"rate_limit","message":"slow down"}]}"#),
                .respond(status: 200, body: Self.spot),
            ])
        ])
        defer { Task { await server.stop() } }
        // A clock is the point here: the host must wait the second it was asked to.
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await Self.fetch(server, ["-v"])
        let elapsed = clock.now - start
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(server.requests == [Self.path, Self.path])
        #expect(elapsed >= .seconds(1))
        #expect(output.stderr.contains("answered HTTP 429; asking again as its Retry-After asks, in 1 s (retry 1 of 3)"), "\(output.stderr)")
    }

    @Test("A Retry-After longer than --timeout fails at once, naming the rate limit and the delay")
    func retryAfterTooLong() async throws {
        let server = try await LoopbackPriceServer(routes: [
            Self.path: .respondWithHeaders(status: 429, headers: ["Retry-After": "300"], body: #"{"errors":[]}"#)
        ])
        defer { Task { await server.stop() } }
        // A clock is the point here: the refusal must not wait out the timeout.
        let output = try await Self.fetch(server, ["--timeout", "250"])
        let elapsed = output.elapsed
        #expect(output.status == 1)
        let line = Self.errorLine(output)
        #expect(line.contains("rate limited: 127.0.0.1:\(server.port) answered HTTP 429 and asked to wait 300 s before trying again"), "\(line)")
        // "At once": the line above already shows no wait ended it. The run
        // takes about 0.2 s idle; the bound is far above that (for a loaded
        // machine) and far below the 250 s a wait for the timeout would take.
        #expect(elapsed < .seconds(120))
        #expect(server.requests == [Self.path])
    }

    @Test("A Retry-After given as an HTTP date is read too")
    func retryAfterDate() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let server = try await LoopbackPriceServer(routes: [
            Self.path: .respondWithHeaders(status: 503, headers: ["Retry-After": formatter.string(from: Date() + 3600)], body: "down")
        ])
        defer { Task { await server.stop() } }
        // The date is under test, not the timeout: an hour's wait against a
        // minute's timeout fails at once, however late the 503 comes on a
        // loaded machine (with --timeout 2 it once came too late, at load 40).
        let output = try await Self.fetch(server, ["--timeout", "60"])
        #expect(output.status == 1)
        let line = Self.errorLine(output)
        #expect(line.contains("unavailable: 127.0.0.1:\(server.port) answered HTTP 503 and asked to wait "), "\(line)")
        // Read as a date: about 3600 s, not the 0 a misread header would give.
        let asked = line.split(separator: "asked to wait ").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(asked.map { (3000...3601).contains($0) } == true, "\(line)")
    }

    @Test("A 503 and then a 200 is retried after a backoff and succeeds")
    func serviceUnavailableThenOK() async throws {
        let server = try await LoopbackPriceServer(routes: [
            Self.path: .sequence([.respond(status: 503, body: "busy"), .respond(status: 200, body: Self.spot)])
        ])
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server, ["-v"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(server.requests == [Self.path, Self.path])
        #expect(output.stderr.contains("answered HTTP 503; asking again after a backoff of"), "\(output.stderr)")
    }

    @Test("A 4xx other than 429 is never asked again")
    func clientErrorNotRetried() async throws {
        let server = try await LoopbackPriceServer(routes: [Self.path: .respond(status: 404, body: #"{"errors":[]}"#)])
        defer { Task { await server.stop() } }
        let output = try await Self.fetch(server)
        #expect(output.status == 1)
        #expect(server.requests == [Self.path])
    }
}
