import Glibc

/// Every environment variable the host reads, read in this one place.
///
/// ``current`` takes them with `getenv`, once per process (the host never
/// changes its own environment): `ProcessInfo` would do, but its
/// first use costs a measurable share of a short command's start, and
/// `host list-fetchers` is meant to start fast. Tests build one from a
/// dictionary instead.
package struct HostEnvironment: Sendable {
    /// A variable the host reads, by its name.
    package enum Variable: String, Sendable, CaseIterable {
        /// Plugin directories, colon-separated, instead of the usual ones.
        case pluginsDirectories = "HOST_PLUGINS_DIR"
        /// API bases, space-separated: `URL` for every plugin, `PLUGIN=URL` for one.
        case apiBaseURL = "HOST_API_BASE_URL"
        /// The user's ranks, `PLUGIN:RANK` separated by commas, over what plugins declare.
        case ranks = "HOST_RANKS"
        /// More URL prefixes plugins may fetch under, space-separated.
        case allowURLs = "HOST_ALLOW_URLS"
        /// 1 to run every plugin in a worker, 0 none.
        case isolate = "HOST_ISOLATE"
        /// 1 to load every plugin without the scan cache.
        case noCache = "HOST_NO_CACHE"
        /// 1 to refuse plugins that cannot get the full sandbox.
        case requireSandbox = "HOST_REQUIRE_SANDBOX"
        /// Sandbox layers to leave off, for tests and benchmarks.
        case sandboxDisable = "HOST_SANDBOX_DISABLE"
        /// What all plugin workers may take together, e.g. 2GiB.
        case memoryBudget = "HOST_MEMORY_BUDGET"
        /// The user's data directory, for their plugins.
        case xdgDataHome = "XDG_DATA_HOME"
        /// The user's cache directory, for the scan cache.
        case xdgCacheHome = "XDG_CACHE_HOME"
        /// The user's configuration directory, for their trust store.
        case xdgConfigHome = "XDG_CONFIG_HOME"
        /// The user's home, when the XDG directories are unset.
        case home = "HOME"
        /// A PEM file of CA certificates, as OpenSSL reads it.
        case sslCertFile = "SSL_CERT_FILE"
        /// Directories of CA certificates, colon-separated, as OpenSSL reads them.
        case sslCertDirectories = "SSL_CERT_DIR"
        /// curl's proxy variables; the lower-case spelling wins.
        case httpsProxy = "https_proxy"
        case httpsProxyUpperCase = "HTTPS_PROXY"
        case httpProxy = "http_proxy"
        case httpProxyUpperCase = "HTTP_PROXY"
        case noProxy = "no_proxy"
        case noProxyUpperCase = "NO_PROXY"
    }

    private let values: [Variable: String]
    /// The current directory, or "." when it cannot be named (deleted, say).
    package let workingDirectory: String

    /// An environment with these values, for tests.
    /// - Parameters:
    ///   - values: The variables that are set; any other is unset.
    ///   - workingDirectory: The current directory.
    package init(_ values: [Variable: String], workingDirectory: String) {
        self.values = values
        self.workingDirectory = workingDirectory
    }

    /// The running process's environment and current directory, read on first use.
    package static let current = read()

    private static func read() -> HostEnvironment {
        var values: [Variable: String] = [:]
        for variable in Variable.allCases {
            if let value = getenv(variable.rawValue) { values[variable] = String(cString: value) }
        }
        return HostEnvironment(values, workingDirectory: currentDirectory())
    }

    /// The value of `variable`, or nil when it is unset.
    package subscript(_ variable: Variable) -> String? {
        values[variable]
    }

    /// The value of `variable`, or nil when it is unset or empty.
    package func nonEmpty(_ variable: Variable) -> String? {
        guard let value = values[variable], !value.isEmpty else { return nil }
        return value
    }

    /// The first of `variables` that is set and not empty, with its value.
    package func first(_ variables: Variable...) -> (variable: Variable, value: String)? {
        for variable in variables {
            if let value = nonEmpty(variable) { return (variable, value) }
        }
        return nil
    }

    /// `getcwd`, or "." if the directory cannot be named.
    private static func currentDirectory() -> String {
        guard let directory = getcwd(nil, 0) else { return "." }
        defer { free(directory) }
        return String(cString: directory)
    }
}
