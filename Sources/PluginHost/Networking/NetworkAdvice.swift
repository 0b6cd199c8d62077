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
