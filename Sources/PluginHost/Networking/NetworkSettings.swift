import FoundationEssentials

/// How the host reaches http and https URLs: which certificates it trusts,
/// which proxy it goes through, and what it advises when a certificate is
/// refused.
///
/// The command line fills it from its flags and the environment
/// (`SSL_CERT_FILE`, `HTTPS_PROXY`, `NO_PROXY` and the rest); the default is
/// the system's trust roots and no proxy.
package struct NetworkSettings: Sendable {
    /// The certificates the host trusts.
    package var trust: TrustSettings
    /// The proxies requests go through.
    package var proxy: ProxySettings
    /// The fix each certificate failure names.
    package var advice: NetworkAdvice

    /// Creates settings.
    /// - Parameters:
    ///   - trust: The trust roots; by default the system's alone.
    ///   - proxy: The proxies; by default none.
    ///   - advice: The fixes certificate failures name; by default wording that names no flag.
    package init(trust: TrustSettings = TrustSettings(), proxy: ProxySettings = .none, advice: NetworkAdvice = NetworkAdvice()) {
        self.trust = trust
        self.proxy = proxy
        self.advice = advice
    }
}

/// The certificates an https server's chain may lead to.
package struct TrustSettings: Sendable, Equatable {
    /// PEM files of CA certificates, and directories of them, trusted beside
    /// (or, without ``trustsSystemRoots``, instead of) the system's.
    package var caPaths: [String]
    /// Whether the system's trust roots are trusted.
    package var trustsSystemRoots: Bool

    /// Creates trust settings.
    /// - Parameters:
    ///   - caPaths: Extra PEM files or directories of CA certificates.
    ///   - trustsSystemRoots: Whether the system's roots are trusted too.
    package init(caPaths: [String] = [], trustsSystemRoots: Bool = true) {
        self.caPaths = caPaths
        self.trustsSystemRoots = trustsSystemRoots
    }
}

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

/// Where one request goes.
enum ProxyDecision: Sendable, Equatable {
    case direct(because: String)
    case through(ProxyServer)
}

/// The fix named after each kind of certificate failure, and after a server
/// that cannot be reached.
///
/// A library speaks in types and the command line in flags: the host's
/// command line fills these with sentences that name its flags and
/// variables, e.g. "pass --ca-file with the CA that signed it, or set
/// SSL_CERT_FILE". The defaults name none.
package struct NetworkAdvice: Sendable {
    /// After a certificate signed by no trusted CA.
    package var untrusted: String
    /// After a certificate for another name than the one connected to.
    package var wrongName: String
    /// After a certificate out of date.
    package var outOfDate: String
    /// After a server whose name did not resolve or that refused the connection.
    package var unreachable: String

    /// Creates advice.
    /// - Parameters:
    ///   - untrusted: How to trust the CA that signed a certificate.
    ///   - wrongName: How to connect by the certificate's name.
    ///   - outOfDate: What to do about an expired or not yet valid certificate.
    ///   - unreachable: What to do when the server cannot be reached, e.g. offline.
    package init(
        untrusted: String = "add the certificate authority that signed it to the host's trust roots",
        wrongName: String = "connect by a name the certificate was issued for",
        outOfDate: String = "the server must renew it; if it has, check this machine's clock",
        unreachable: String = "check the API's address and your network connection"
    ) {
        self.untrusted = untrusted
        self.wrongName = wrongName
        self.outOfDate = outOfDate
        self.unreachable = unreachable
    }
}
