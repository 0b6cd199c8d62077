import Testing

@testable import PluginHost

/// A bracketed host is an IPv6 literal or nothing: Foundation reads `[127.0.0.1]`
/// as no address the policy checked, so an IPv4 address in brackets is no host.
extension URLPolicyTests {
    @Test("An IPv4 address in brackets is not a host, whatever its form", arguments: [
        "https://[127.0.0.1]/v2", "https://[127.0.0.1]:443/v2", "https://[10.0.0.1]/v2/prices", "https://[1.2.3.4]/",
    ])
    func bracketedIPv4IsNoHost(input: String) {
        let host = input.split(separator: "/")[1].split(separator: "]")[0] + "]"
        #expect(Self.refusal(input) == "refused http_get of \(input): it has the host '\(host)', which is not a plain name or address")
    }

    @Test("An IPv6 address in brackets is a host, an IPv4-mapped one too", arguments: [
        ("https://[::1]/v2", "https://[::1]/v2/prices"),
        ("https://[::ffff:127.0.0.1]/v2", "https://[::ffff:127.0.0.1]/v2/prices"),
    ])
    func bracketedIPv6IsAHost(prefix: String, candidate: String) throws {
        let policy = URLPolicy(allowing: [try URLPrefix(prefix)])
        #expect(try policy.check(candidate).text == candidate)
    }
}
