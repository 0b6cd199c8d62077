/// The host and port a URL names, as a person writes them.
struct Endpoint: Sendable, CustomStringConvertible {
    let host: String
    let port: Int

    /// Reads the authority of an absolute URL; the host has already checked
    /// it, so this only takes it apart.
    init(url: String) {
        var rest = Substring(url)
        let isHTTPS = rest.lowercased().hasPrefix("https:")
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let authority = rest.prefix { !"/?#".contains($0) }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        var host = Substring(hostPort)
        var port = isHTTPS ? 443 : 80
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":"), let number = Int(after.dropFirst()) { port = number }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            if let number = Int(host[host.index(after: colon)...]) { port = number }
            host = host[..<colon]
        }
        self.host = String(host)
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
