import Glibc

/// The trust store NIOSSL's `.default` roots load on Linux: the first
/// bundle file found, and the hashed certificate directory.
///
/// NB: NIOSSL keeps its search paths internal (`LinuxCABundle.swift`); these
/// are the same lists, in the same order.
enum SystemTrustStore {
    /// The bundle BoringSSL parses for the system's roots, if any.
    static let bundle: String? = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"].first { kind(of: $0) == S_IFREG }
    /// The directory BoringSSL looks certificates up in by hash, if any.
    static let directory: String? = ["/etc/ssl/certs"].first { kind(of: $0) == S_IFDIR }

    /// Whether `path` is the system's bundle or its certificate directory,
    /// which the system's roots already trust: reading it again would parse
    /// a few hundred certificates for nothing.
    static func isLoadedByDefault(_ path: String) -> Bool {
        guard let resolved = realPath(path) else { return false }
        return [bundle, directory].contains { $0.flatMap(realPath) == resolved }
    }

    private static func kind(of path: String) -> mode_t? {
        var facts = stat()
        return stat(path, &facts) == 0 ? facts.st_mode & S_IFMT : nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
