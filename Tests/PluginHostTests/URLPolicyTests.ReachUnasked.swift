import Testing

@testable import PluginHost

/// What `host allow` grants a stranger only when the user names the URL:
/// files, and link-local addresses however the resolver would read them.
extension URLPolicyTests {
    static let linkLocal = "link-local addresses (where cloud machines serve their credentials)"

    @Test("Files and link-local addresses, in every form the resolver reads, are beyond what a grant gives unasked", arguments: [
        ("file:///etc", "files on this machine"),
        ("http://169.254.169.254/latest", linkLocal), ("http://169.254.0.1/", linkLocal), ("https://169.254.255.255:8443/", linkLocal),
        ("http://2852039166/", linkLocal), ("http://0xa9fea9fe/", linkLocal), ("http://169.16689662/", linkLocal),
        ("http://[fe80::1]/", linkLocal), ("http://[febf:ffff::1]/", linkLocal), ("http://[::ffff:169.254.169.254]/", linkLocal),
    ])
    func beyondAGrant(url: String, reach: String) throws {
        #expect(try StrictURL(url).reachUnasked == reach)
    }

    @Test("Other hosts, loopback and private ones included, are grantable as declared", arguments: [
        "https://api.coinbase.com/v2", "http://127.0.0.1:8080/", "http://10.0.0.1/", "http://192.168.1.2/",
        "http://168.254.1.1/", "http://169.253.1.1/", "http://169.255.0.1/", "http://170.254.0.1/",
        "http://[::1]/", "http://[fec0::1]/", "http://[fe40::1]/", "http://[fd00::1]/", "http://[ff02::1]/",
        "http://[::ffff:168.254.0.1]/", "http://[::fffe:a9fe:a9fe]/", "http://[1::ffff:169.254.1.1]/", "http://[::ffff:127.0.0.1]/",
    ])
    func grantable(url: String) throws {
        #expect(try StrictURL(url).reachUnasked == nil)
    }
}
