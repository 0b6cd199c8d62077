import Foundation
import Testing

@testable import PluginHost

/// How proxy URLs, `NO_PROXY` lists and `Retry-After` headers are read, by
/// curl's and HTTP's conventions.
@Suite("Network settings")
struct NetworkSettingsTests {
    @Test(
        "NO_PROXY matches names, domains, addresses, ranges and *",
        arguments: [
            ("api.example.com", "example.com", true),
            ("example.com", ".example.com", true),
            ("API.Example.COM", "example.com", true),
            ("badexample.com", "example.com", false),
            ("127.0.0.1", "127.0.0.1", true),
            ("127.0.0.2", "127.0.0.1", false),
            ("10.1.2.3", "localhost, 10.0.0.0/8", true),
            ("11.1.2.3", "10.0.0.0/8", false),
            ("anything.test", "*", true),
            ("prices.test", "prices.test:8443", true),
            ("::1", "[::1]", true),
            ("host.test", "", false),
        ])
    func noProxy(host: String, list: String, matches: Bool) {
        #expect(NoProxyList(list).matches(host: host) == matches)
    }

    @Test("A proxy URL is read with or without its scheme, and its credentials are decoded and never described")
    func proxyURL() throws {
        let proxy = try ProxyServer("http://al%40ice:p%3Ass@proxy.test:3128/", source: "HTTPS_PROXY")
        #expect(proxy.host == "proxy.test" && proxy.port == 3128)
        #expect(proxy.username == "al@ice" && proxy.password == "p:ss")
        #expect(proxy.description == "http://proxy.test:3128")
        let bare = try ProxyServer("proxy.test", source: "--proxy")
        #expect(bare.description == "http://proxy.test:1080")
    }

    @Test("A proxy the host cannot use is refused, credentials hidden", arguments: [
        ("https://u:secret@proxy.test:443", "HTTPS_PROXY 'https://***@proxy.test:443' uses https://, and only http:// proxies are supported"),
        ("http://proxy.test:3128/path", "HTTPS_PROXY 'http://proxy.test:3128/path' has a path; give only the scheme, host and port"),
    ])
    func unusableProxy(text: String, message: String) {
        #expect(throws: ProxyURLError.self) { try ProxyServer(text, source: "HTTPS_PROXY") }
        do {
            _ = try ProxyServer(text, source: "HTTPS_PROXY")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("Only the proxy for the URL's scheme is used, unless NO_PROXY matches or proxies are off")
    func decisions() throws {
        let proxy = try ProxyServer("127.0.0.1:3128", source: "HTTPS_PROXY")
        let settings = ProxySettings(https: proxy, http: nil, bypass: NoProxyList("internal.test"))
        #expect(settings.decision(for: try #require(URL(string: "https://api.test/v2"))) == .through(proxy))
        #expect(settings.decision(for: try #require(URL(string: "http://api.test/v2"))) == .direct(because: "no proxy is set for http"))
        #expect(settings.decision(for: try #require(URL(string: "https://a.internal.test/"))) == .direct(because: "NO_PROXY matches a.internal.test"))
        #expect(ProxySettings.disabled(by: "--no-proxy").decision(for: try #require(URL(string: "https://api.test/"))) == .direct(because: "--no-proxy was given"))
    }

    @Test("Retry-After is read as seconds or as an HTTP date, and anything else is ignored")
    func retryAfter() {
        // Sun, 06 Nov 1994 08:49:37 GMT is 784111777 s after 1970.
        #expect(RetryAfter.imfFixdate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(RetryAfter.delay("120", now: 0) == .seconds(120))
        #expect(RetryAfter.delay(" 1 ", now: 0) == .seconds(1))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_767) == .seconds(10))
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_800) == .zero)
        #expect(RetryAfter.delay("soon", now: 0) == nil)
        #expect(RetryAfter.delay("-5", now: 0) == nil)
        // Found by the host-http-answer fuzz target: a year past four digits
        // overflowed the day count and crashed the host.
        #expect(RetryAfter.delay("d, 2 Oct 444444442015 0:8:00 GMT", now: 0) == nil)
        #expect(RetryAfter.delay("Sun, 06 Nov 9223372036854775807 08:49:37 GMT", now: 0) == nil)
        #expect(RetryAfter.delay("Fri, 31 Dec 9999 23:59:59 GMT", now: 0) == .seconds(253_402_300_799))
    }

    @Test("Backoff doubles, and its jitter stays within the upper half")
    func backoff() {
        let policy = RetryPolicy(maximumRetries: 3, initialBackoff: .milliseconds(200))
        for _ in 0..<50 {
            #expect((Duration.milliseconds(100)...Duration.milliseconds(200)).contains(policy.backoff(before: 1)))
            #expect((Duration.milliseconds(200)...Duration.milliseconds(400)).contains(policy.backoff(before: 2)))
        }
    }
}
