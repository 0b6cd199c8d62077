import Glibc

extension StrictURL {
    /// What this URL reaches that no network grant hands a plugin unasked,
    /// as a phrase ("files on this machine"); nil for any other URL.
    ///
    /// A file URL reads the user's files, and a link-local address is where
    /// cloud machines serve their credentials; `host allow` grants a base
    /// like these only when the user names it with `--url`. Addresses are
    /// read as the resolver reads them (`inet_aton`: `169.254.169.254`,
    /// `2852039166` and `0xa9fea9fe` alike). Loopback and private addresses
    /// are not in it: they are where a user's own test and LAN services live.
    var reachUnasked: String? {
        if scheme == "file" { return "files on this machine" }
        return Self.isLinkLocal(host) ? "link-local addresses (where cloud machines serve their credentials)" : nil
    }

    private static func isLinkLocal(_ host: String) -> Bool {
        if host.hasPrefix("[") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return false }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return true }
            // An IPv4-mapped address, ::ffff:169.254.x.y.
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 169 && bytes[13] == 254
        }
        var address = in_addr()
        guard inet_aton(host, &address) != 0 else { return false }
        let value = UInt32(bigEndian: address.s_addr)
        return value >> 16 == 0xA9FE
    }
}
