import ArgumentParser
import Glibc
import PluginHost

/// How the host reaches http and https URLs: trust roots and proxies, from
/// flags and, as curl and OpenSSL read them, the environment.
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
            let reason = String(cString: strerror(errno))
            throw ValidationError("--ca-file \(file) cannot be read (\(reason)); give a PEM file of CA certificates, or fix the path")
        }
    }

    /// The trust roots and proxies from the flags, else the environment,
    /// with advice that names them.
    func settings() throws -> NetworkSettings {
        var paths: [String] = []
        if let file = Self.variable("SSL_CERT_FILE") { paths.append(file) }
        if let directories = Self.variable("SSL_CERT_DIR") { paths += directories.split(separator: ":").map(String.init) }
        paths += caFiles
        let untrusted =
            noSystemCA
            ? "pass --ca-file PATH with the CA certificate that signed it, or drop --no-system-ca"
            : "pass --ca-file PATH or set SSL_CERT_FILE to the CA certificate that signed it"
        let advice = CertificateAdvice(untrusted: untrusted, wrongName: "give --api-base-url a host name the certificate was issued for")
        return NetworkSettings(trust: TrustSettings(caPaths: paths, trustsSystemRoots: !noSystemCA), proxy: try proxySettings(), advice: advice)
    }

    /// `--no-proxy`, else `--proxy` for every scheme, else the variables
    /// curl reads, the lower-case name first.
    private func proxySettings() throws -> ProxySettings {
        if noProxy { return .disabled(by: "--no-proxy") }
        let (bypassSource, bypass) = Self.firstVariable("no_proxy", "NO_PROXY") ?? ("NO_PROXY", "")
        do throws(ProxyURLError) {
            if let proxy {
                let server = try ProxyServer(proxy, source: "--proxy")
                return ProxySettings(https: server, http: server, bypass: NoProxyList(bypass), bypassSource: bypassSource)
            }
            let https = try Self.firstVariable("https_proxy", "HTTPS_PROXY").map { (variable) throws(ProxyURLError) in try ProxyServer(variable.value, source: variable.name) }
            let http = try Self.firstVariable("http_proxy", "HTTP_PROXY").map { (variable) throws(ProxyURLError) in try ProxyServer(variable.value, source: variable.name) }
            return ProxySettings(https: https, http: http, bypass: NoProxyList(bypass), bypassSource: bypassSource)
        } catch {
            let fix = error.source == "--proxy" ? "give e.g. --proxy http://proxy.example:3128" : "fix or unset it, or pass --no-proxy"
            throw ValidationError("\(error); \(fix)")
        }
    }

    /// A variable's value, or nil when it is unset or empty.
    private static func variable(_ name: String) -> String? {
        guard let value = ProcessEnvironment.value(of: name), !value.isEmpty else { return nil }
        return value
    }

    /// The first of `names` that is set, with its value.
    private static func firstVariable(_ names: String...) -> (name: String, value: String)? {
        for name in names {
            if let value = variable(name) { return (name, value) }
        }
        return nil
    }
}
