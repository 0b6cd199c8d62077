import FoundationEssentials

/// An HTTP proxy, written as curl reads one: `http://proxy.example:3128`,
/// `proxy.example:3128`, or with credentials, `http://user:pass@proxy:3128`.
///
/// Requests to `https` URLs go through it with `CONNECT`, so the proxy sees
/// the host and port, never the request. The credentials are sent to the
/// proxy and never printed: ``description`` leaves them out.
package struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or IP address.
    package let host: String
    /// The proxy's port; 1080 when the URL names none, as in curl.
    package let port: Int
    /// Where the setting came from, e.g. `HTTPS_PROXY` or `--proxy`, for log lines.
    package let source: String
    /// The user name, percent-decoded.
    let username: String?
    /// The password, percent-decoded.
    let password: String?

    /// Reads a proxy URL.
    /// - Parameters:
    ///   - text: `[http://][user[:password]@]host[:port][/]`.
    ///   - source: Where it came from, for log lines and errors.
    /// - Throws: ``ProxyURLError`` when it is not an http proxy URL; its
    ///   description never shows the credentials.
    package init(_ text: String, source: String) throws(ProxyURLError) {
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        let written = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: written), let scheme = components.scheme?.lowercased() else {
            throw ProxyURLError(source: source, text: Self.redacted(trimmed), problem: "is not a URL")
        }
        guard scheme == "http" else {
            throw ProxyURLError(source: source, text: Self.redacted(trimmed), problem: "uses \(scheme)://, and only http:// proxies are supported")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ProxyURLError(source: source, text: Self.redacted(trimmed), problem: "names no host")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            throw ProxyURLError(source: source, text: Self.redacted(trimmed), problem: "has a path; give only the scheme, host and port")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 1080
        self.source = source
        self.username = components.user
        self.password = components.password
    }

    /// `http://host:port`, without credentials.
    package var description: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }

    /// `text` with any `user:password@` replaced, for error lines.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let start = text.firstRange(of: "://")?.upperBound ?? text.startIndex
        guard start <= at else { return text }
        return String(text[..<start]) + "***@" + String(text[text.index(after: at)...])
    }
}

/// A proxy setting that cannot be used, e.g. `HTTPS_PROXY 'socks5://…'
/// uses socks5://, and only http:// proxies are supported`.
package struct ProxyURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the setting came from, e.g. `HTTPS_PROXY`.
    package let source: String
    /// The setting, credentials hidden.
    package let text: String
    /// What is wrong with it.
    package let problem: String

    /// `SOURCE 'text' problem`.
    package var description: String { "\(source) '\(text)' \(problem)" }
}
