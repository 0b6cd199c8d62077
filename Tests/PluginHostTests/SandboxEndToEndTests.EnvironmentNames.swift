import Foundation
import Testing

/// Every name of the host's environment outside the allow list stays out of
/// the worker's, whichever it is: the list is exact, not a list of names to hide.
extension SandboxEndToEndTests {
    /// The names a worker may see when the host has them, in the order the worker gets them.
    static let allowedEnvironment = [
        "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES", "TZ", "LD_LIBRARY_PATH",
    ]

    /// Names a host's environment commonly holds, none of which a worker may see.
    static let unlistedEnvironment = [
        "HOME", "PATH", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "TERM", "TMPDIR", "EDITOR", "MAIL", "HOSTNAME",
        "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_DATA_DIRS", "DISPLAY", "WAYLAND_DISPLAY",
        "DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO",
        "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
        "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
        "LD_PRELOAD", "LD_AUDIT", "LD_DEBUG", "GCONV_PATH", "MALLOC_CHECK_", "LC_ADDRESS", "LC_IDENTIFICATION", "LC_MEASUREMENT",
        "LC_NAME", "LC_PAPER", "LC_TELEPHONE", "NLSPATH", "LOCPATH",
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "API_KEY",
        "COINBASE_API_KEY", "DATABASE_URL", "PASSWORD", "CI", "PATCHBAY_CANARY", "PATCHBAY_WORKER_SANDBOX_SKIP",  // the worker's own switch, as a user could set it
    ]

    @Test("The environment: of a host holding every allowed name and some sixty others, the worker sees exactly the allowed ones, and no value of another")
    func everyUnlistedNameStaysOut() async throws {
        let token = Self.processToken()
        var environment: [String: String] = [:]
        for name in Self.unlistedEnvironment {
            // Values the host itself reads stay harmless; the rest carry the token.
            switch name {
            case "HOME", "PATH", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME": continue  // set by the runner
            case "TMPDIR": environment[name] = "/tmp"
            case "LD_PRELOAD", "LD_AUDIT", "LD_DEBUG", "GCONV_PATH", "LOCPATH", "NLSPATH": environment[name] = ""
            case let proxy where proxy.lowercased().hasSuffix("_proxy") && proxy.lowercased() != "no_proxy":
                environment[name] = "http://bob:\(token)@127.0.0.1:9/"
            default: environment[name] = token
            }
        }
        for name in Self.allowedEnvironment { environment[name] = name == "TZ" ? "UTC" : name == "LANGUAGE" ? "en" : "C.UTF-8" }
        environment["LD_LIBRARY_PATH"] = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? "/usr/lib"

        let (rows, output) = try await fetchByDefault(["ENV"], from: [Self.attack("ENVIRONMENT", ["TOKEN": token])], environment: environment)

        let names = (Self.allowedEnvironment + ["SWIFT_BACKTRACE", "LIBDISPATCH_LOG", "PATCHBAY_WORKER_ADDRESS_SPACE"]).joined(separator: " ")
        #expect(rows["ENV"]?["error"] == "environment: \(names); token unseen", "\(output.stderr)")
        #expect(output.status == 1)
    }
}
