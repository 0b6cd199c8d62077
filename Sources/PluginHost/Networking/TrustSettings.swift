import FoundationEssentials

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
