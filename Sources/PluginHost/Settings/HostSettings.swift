/// What the user asked of the host on its command line, before the
/// environment and the defaults fill the gaps: plain values, unchecked.
///
/// The command line parses flags into this; ``HostWiring`` checks it, with
/// the ``HostEnvironment``, and wires the host.
package struct HostSettings: Sendable {
    /// Directories to load plugins from, instead of `HOST_PLUGINS_DIR` and the usual ones.
    package var pluginsDirectories: [String] = []
    /// API bases, instead of `HOST_API_BASE_URL`: `URL` for every plugin,
    /// `PLUGIN=URL` for one (see `APIBases(parsing:)`).
    package var apiBaseURLs: [String] = []
    /// More URL prefixes plugins may fetch under, instead of `HOST_ALLOW_URLS`.
    package var allowedURLs: [String] = []
    /// Every plugin in a worker (true), none (false), or as trust says (nil, or `HOST_ISOLATE`).
    package var isolate: Bool?
    /// Load every plugin without the scan cache (else `HOST_NO_CACHE`).
    package var noCache = false
    /// Refuse plugins that cannot get the full sandbox (else `HOST_REQUIRE_SANDBOX`).
    package var requireSandbox = false
    /// How long a plugin may take to load in a worker.
    package var loadTimeout: Duration = .seconds(10)
    /// What all plugin workers may take together, e.g. `2GiB`, instead of `HOST_MEMORY_BUDGET`.
    package var memoryBudget: String?
    /// A lock file every plugin must match, instead of each directory's `plugins.lock`.
    package var allowlist: String?
    /// PEM files of CA certificates to trust, beside `SSL_CERT_FILE` and `SSL_CERT_DIR`.
    package var caFiles: [String] = []
    /// Whether the system's CA certificates are trusted too.
    package var trustsSystemRoots = true
    /// The proxy for every request, instead of the proxy variables.
    package var proxy: String?
    /// Connect directly, whatever the proxy variables say.
    package var noProxy = false

    /// Settings that say nothing: every value from the environment or the defaults.
    package init() {}
}
