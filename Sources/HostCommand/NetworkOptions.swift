import ArgumentParser
import Glibc
import PluginBoundary
import PluginHost

/// How the host reaches http and https URLs: trust roots and proxies. The
/// environment's say (as curl and OpenSSL read it) is added by ``HostWiring``.
struct NetworkOptions: ParsableArguments {
    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "A PEM file of CA certificates to trust for https, beside the system's; repeat for more. SSL_CERT_FILE and SSL_CERT_DIR add more.",
            valueName: "path"
        )
    )
    var caFiles: [String] = []

    @Flag(name: .customLong("no-system-ca"), help: "With --ca-file: trust only the given CA certificates, not the system's.")
    var noSystemCA = false

    @Option(
        name: .customLong("proxy"),
        help: ArgumentHelp(
            "The HTTP proxy for every request, e.g. http://user:pass@proxy:3128. Overrides HTTPS_PROXY and HTTP_PROXY; NO_PROXY still applies.",
            valueName: "url"
        )
    )
    var proxy: String?

    @Flag(name: .customLong("no-proxy"), help: "Connect directly, whatever HTTPS_PROXY and HTTP_PROXY say.")
    var noProxy = false

    func validate() throws {
        if noSystemCA && caFiles.isEmpty {
            throw ValidationError("--no-system-ca trusts only the certificates of --ca-file, and none was given; pass --ca-file PATH, or drop --no-system-ca")
        }
        if noProxy && proxy != nil {
            throw ValidationError("--proxy and --no-proxy contradict each other; drop one of the two")
        }
        for file in caFiles where access(file, R_OK) != 0 {
            let reason = SystemError(operation: "read", errno: errno).reason
            throw ValidationError("--ca-file \(file) cannot be read (\(reason)); give a PEM file of CA certificates, or fix the path")
        }
    }

    /// What a refused certificate's or an unreachable server's message
    /// suggests, in this command's flags.
    var networkAdvice: NetworkAdvice {
        let untrusted =
            noSystemCA
            ? "pass --ca-file PATH with the CA certificate that signed it, or drop --no-system-ca"
            : "pass --ca-file PATH or set SSL_CERT_FILE to the CA certificate that signed it"
        // Offline, the fixtures a checkout ships answer like Coinbase and like Bitstamp.
        let fixtures = OfflineFixtures(checkout: InstalledLayout.running.checkout)
        return NetworkAdvice(
            untrusted: untrusted, wrongName: "give --api-base-url a host name the certificate was issued for",
            unreachable: "check the address and your network connection", offline: { fixtures.advice(for: $0) })
    }
}
