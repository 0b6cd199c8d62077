import FoundationEssentials

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
    /// What to do offline, for the URL that could not be reached (the
    /// fixtures that answer that very request), or nil for nothing more.
    package var offline: @Sendable (URL) -> String?

    /// Creates advice.
    /// - Parameters:
    ///   - untrusted: How to trust the CA that signed a certificate.
    ///   - wrongName: How to connect by the certificate's name.
    ///   - outOfDate: What to do about an expired or not yet valid certificate.
    ///   - unreachable: What to do when the server cannot be reached.
    ///   - offline: What to do offline instead, given the URL that could not be reached.
    package init(
        untrusted: String = "add the certificate authority that signed it to the host's trust roots",
        wrongName: String = "connect by a name the certificate was issued for",
        outOfDate: String = "the server must renew it; if it has, check this machine's clock",
        unreachable: String = "check the API's address and your network connection",
        offline: @escaping @Sendable (URL) -> String? = { _ in nil }
    ) {
        self.untrusted = untrusted
        self.wrongName = wrongName
        self.outOfDate = outOfDate
        self.unreachable = unreachable
        self.offline = offline
    }

    /// The advice after `url` could not be reached: ``unreachable``, then ``offline``'s, if any.
    func unreachable(_ url: URL?) -> String {
        guard let url, let offline = offline(url) else { return unreachable }
        return "\(unreachable); \(offline)"
    }
}
