import FoundationEssentials

/// Which proxy, if any, each request goes through, by curl's conventions:
/// one proxy for https URLs, one for http, and hosts that bypass both.
package struct ProxySettings: Sendable {
    /// The proxy for `https` URLs.
    package let https: ProxyServer?
    /// The proxy for `http` URLs.
    package let http: ProxyServer?
    /// Hosts reached directly, whatever the proxies.
    package let bypass: NoProxyList
    /// Where the bypass list came from, e.g. `NO_PROXY`, for log lines.
    package let bypassSource: String
    /// Why there is no proxy at all, when that was asked for, e.g. `--no-proxy`.
    let disabledBy: String?

    /// Creates proxy settings.
    /// - Parameters:
    ///   - https: The proxy for `https` URLs, or nil.
    ///   - http: The proxy for `http` URLs, or nil.
    ///   - bypass: The hosts reached directly.
    ///   - bypassSource: Where `bypass` came from, for log lines.
    package init(https: ProxyServer?, http: ProxyServer?, bypass: NoProxyList = NoProxyList(""), bypassSource: String = "NO_PROXY") {
        self.https = https
        self.http = http
        self.bypass = bypass
        self.bypassSource = bypassSource
        self.disabledBy = nil
    }

    private init(disabledBy: String?) {
        self.https = nil
        self.http = nil
        self.bypass = NoProxyList("")
        self.bypassSource = "NO_PROXY"
        self.disabledBy = disabledBy
    }

    /// No proxy: every request connects directly.
    package static let none = ProxySettings(disabledBy: nil)

    /// No proxy, because `reason` (e.g. `--no-proxy`) said so.
    /// - Parameter reason: What turned proxies off, for log lines.
    /// - Returns: Settings that connect directly.
    package static func disabled(by reason: String) -> ProxySettings {
        ProxySettings(disabledBy: reason)
    }

    /// Where a request to `url` goes.
    func decision(for url: URL) -> ProxyDecision {
        let scheme = url.scheme?.lowercased() ?? ""
        if let disabledBy { return .direct(because: "\(disabledBy) was given") }
        guard let server = scheme == "https" ? https : scheme == "http" ? http : nil else {
            return .direct(because: "no proxy is set for \(scheme)")
        }
        let host = url.host(percentEncoded: false) ?? ""
        if bypass.matches(host: host) { return .direct(because: "\(bypassSource) matches \(host)") }
        return .through(server)
    }
}
