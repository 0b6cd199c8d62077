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
