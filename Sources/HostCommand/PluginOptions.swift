import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import PluginHost
import WorkerProtocol

/// The options every subcommand takes: where plugins are and what they talk to.
struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugins-dir"),
        help: ArgumentHelp("A directory to load plugins from; repeat for more. Overrides HOST_PLUGINS_DIR.", valueName: "dir")
    )
    var pluginsDirectories: [String] = []

    @Option(
        name: .customLong("api-base-url"),
        help: ArgumentHelp(
            "Base URL of the Coinbase-compatible API: http, https or file. Overrides HOST_API_BASE_URL. (default: \(Self.defaultAPIBaseURL))",
            valueName: "url"
        )
    )
    var apiBaseURL: String?

    @Option(
        name: .customLong("allow-url"),
        help: ArgumentHelp(
            "Also let plugins fetch URLs under this prefix (scheme, host, port and path), beyond the API base; repeat for more. Overrides HOST_ALLOW_URLS (space-separated).",
            valueName: "prefix"
        )
    )
    var allowURLs: [String] = []

    @Flag(name: .shortAndLong, help: "Log what the host and its plugins do, to stderr.")
    var verbose = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Run every plugin in a sandboxed worker process of its own (--isolate), or every plugin in this process (--no-isolate). By default, plugins bundled with the host or pinned in a lock file run in this process and the rest in workers. Overrides HOST_ISOLATE=1 or 0."
        )
    )
    var isolate: Bool?

    @Flag(
        name: .customLong("no-cache"),
        help: ArgumentHelp(
            "Load every plugin, without reading or writing the plugin registry cache. Also HOST_NO_CACHE=1."
        )
    )
    var noCache = false

    @Flag(
        name: .customLong("require-sandbox"),
        help: ArgumentHelp(
            "Refuse any plugin whose worker cannot get the full sandbox (Landlock, seccomp, resource limits). Implies --isolate. Also HOST_REQUIRE_SANDBOX=1."
        )
    )
    var requireSandbox = false

    @Option(
        name: .customLong("load-timeout"),
        help: ArgumentHelp(
            "With --isolate: seconds a plugin may take to load before its worker is stopped, from 0.001 to 3600. (default: \(TimeLimit.standard))",
            valueName: "seconds"),
        transform: TimeLimit.init(parsing:)
    )
    var loadTimeout = TimeLimit.standard

    @Option(
        name: .customLong("allowlist"),
        help: ArgumentHelp(
            "A lock file of SHA-256 digests (sha256sum format) that every plugin must match. (default: plugins.lock in each plugins directory, when present)",
            valueName: "file"
        )
    )
    var allowlist: String?

    @OptionGroup(title: "Network")
    var network: NetworkOptions

    static let defaultAPIBaseURL = "https://api.coinbase.com"

    /// The API base from the flag, the environment, or the default.
    func resolvedAPIBaseURL() throws -> URL {
        let (text, source) =
            if let apiBaseURL { (apiBaseURL, "--api-base-url") }
            else if let value = ProcessEnvironment.value(of: "HOST_API_BASE_URL"), !value.isEmpty { (value, "HOST_API_BASE_URL") }
            else { (Self.defaultAPIBaseURL, "the default") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme),
            scheme == "file" || url.host() != nil
        else {
            throw ValidationError(
                "\(source) '\(text)' is not an http, https or file URL; use e.g. https://api.coinbase.com or file://$PWD/Fixtures/coinbase"
            )
        }
        do {
            _ = try URLPrefix(text)
        } catch {
            throw ValidationError("\(source) \(error); plugins may fetch only under it, so give a plain base such as https://api.coinbase.com")
        }
        return url
    }

    /// The prefixes granted beyond the API base: the flags, else `HOST_ALLOW_URLS`.
    func resolvedAllowedURLs() throws -> [URLPrefix] {
        let (texts, source) =
            if !allowURLs.isEmpty { (allowURLs, "--allow-url") }
            else { ((ProcessEnvironment.value(of: "HOST_ALLOW_URLS") ?? "").split(whereSeparator: \.isWhitespace).map(String.init), "HOST_ALLOW_URLS") }
        return try texts.map { text in
            do {
                return try URLPrefix(text)
            } catch {
                throw ValidationError("\(source) \(error); give a prefix such as https://api.example.com/v2 or file:///srv/prices")
            }
        }
    }

    /// Where plugins run: everything in workers or everything in-process
    /// when a switch says so (`--isolate`, `--no-isolate`, `HOST_ISOLATE`, or
    /// a required sandbox), else by who vouches for each plugin. A required
    /// sandbox with `--no-isolate`, or `HOST_ISOLATE=0` against
    /// `HOST_REQUIRE_SANDBOX=1`, is a contradiction.
    func resolvedPolicy() throws -> IsolationPolicy {
        let requiredBy = try sandboxRequirement()
        func conflict(_ source: String) -> ValidationError {
            ValidationError("\(requiredBy ?? "") runs plugins in sandboxed workers, which \(source) turns off; drop one of the two")
        }
        if let isolate {
            if requiredBy != nil && !isolate { throw conflict("--no-isolate") }
            return isolate ? .everything(because: "--isolate") : .nothing(because: "--no-isolate")
        }
        // A flag wins over a variable.
        if requireSandbox { return .everything(because: "--require-sandbox") }
        let fromEnvironment = try Self.boolean("HOST_ISOLATE", fix: "set HOST_ISOLATE=1 to isolate every plugin, HOST_ISOLATE=0 to isolate none, or unset it")
        if let requiredBy {
            if fromEnvironment == false { throw conflict("HOST_ISOLATE=0") }
            return .everything(because: requiredBy)
        }
        switch fromEnvironment {
        case true?: return .everything(because: "HOST_ISOLATE=1")
        case false?: return .nothing(because: "HOST_ISOLATE=0")
        case nil: return .byTrust
        }
    }

    /// Whether the registry cache is used: not with `--no-cache` or
    /// `HOST_NO_CACHE=1`, nor when there is no `$XDG_CACHE_HOME` or `$HOME` to keep it in.
    func cacheUse() throws -> ScanCacheUse {
        if noCache { return .off }
        if try Self.boolean("HOST_NO_CACHE", fix: "set HOST_NO_CACHE=1 to load every plugin without the cache, or unset it") == true { return .off }
        guard let home = cacheHome() else { return .off }
        return .use(cacheHome: home)
    }

    /// `$XDG_CACHE_HOME`, or `$HOME/.cache`.
    func cacheHome() -> String? {
        ScanCacheUse.cacheHome(xdgCacheHome: ProcessEnvironment.value(of: "XDG_CACHE_HOME"), home: ProcessEnvironment.value(of: "HOME"))
    }

    /// How the command's workers run: the scanners, and isolated plugins.
    func isolationOptions() throws -> IsolationOptions {
        // A value checkSandboxSwitch() refuses is no reason to confine less.
        let skipped = (try? SandboxLayers(naming: ProcessEnvironment.value(of: Self.sandboxDisableVariable) ?? "")) ?? []
        return IsolationOptions(loadTimeout: loadTimeout.duration, requireFullSandbox: try sandboxRequirement() != nil, skippedSandboxLayers: skipped)
    }

    /// Everything that says how plugins are found out about and loaded.
    func loadOptions() throws -> LoadOptions {
        LoadOptions(policy: try resolvedPolicy(), isolation: try isolationOptions(), cache: try cacheUse())
    }

    /// The name of the switch that requires a full sandbox, `--require-sandbox`
    /// or `HOST_REQUIRE_SANDBOX=1`, or nil when neither is set.
    func sandboxRequirement() throws -> String? {
        if requireSandbox { return "--require-sandbox" }
        let fix = "set HOST_REQUIRE_SANDBOX=1 to refuse plugins without a full sandbox, or unset it"
        return try Self.boolean("HOST_REQUIRE_SANDBOX", fix: fix) == true ? "HOST_REQUIRE_SANDBOX=1" : nil
    }

    /// The sandbox layers `HOST_SANDBOX_DISABLE` turns off, for tests and benchmarks.
    static let sandboxDisableVariable = "HOST_SANDBOX_DISABLE"

    /// An environment variable read as 1 or 0, or nil when it is unset or empty.
    private static func boolean(_ name: String, fix: String) throws -> Bool? {
        guard let value = ProcessEnvironment.value(of: name), !value.isEmpty else { return nil }
        switch value.lowercased() {
        case "1", "yes", "true", "on": return true
        case "0", "no", "false", "off": return false
        default: throw ValidationError("\(name) '\(value)' is not 1 or 0; \(fix)")
        }
    }

    /// The trust policy from `--allowlist`.
    /// - Parameter mustExist: Whether the allowlist is read (loading) rather than written (`lock-plugins`).
    func trust(mustExist: Bool = true) throws -> PluginTrust {
        guard let allowlist else { return PluginTrust() }
        if mustExist, access(allowlist, R_OK) != 0 {
            let reason = String(cString: strerror(errno))
            throw ValidationError(
                "--allowlist \(allowlist) cannot be read (\(reason)); create it with `host lock-plugins --allowlist \(allowlist)`, or fix the path")
        }
        return PluginTrust(allowlist: .file(allowlist))
    }

    /// The plugin search path from `--plugins-dir`, `HOST_PLUGINS_DIR` or the usual directories.
    func discovery() throws -> PluginDiscovery {
        do {
            return try PluginDiscovery(
                flags: pluginsDirectories,
                environment: ProcessEnvironment.value(of: "HOST_PLUGINS_DIR"),
                executableDirectory: PluginDiscovery.runningExecutableDirectory,
                dataHome: PluginDiscovery.dataHome(xdgDataHome: ProcessEnvironment.value(of: "XDG_DATA_HOME"), home: ProcessEnvironment.value(of: "HOME")),
                workingDirectory: ProcessEnvironment.workingDirectory
            )
        } catch {
            throw ValidationError(
                "HOST_PLUGINS_DIR '\(error.environmentValue)' has an empty entry; name directories separated by ':', e.g. HOST_PLUGINS_DIR=plugins:/opt/plugins, or unset it to search the usual directories"
            )
        }
    }

    /// Wires the production host, without loading anything.
    func host(trustMustExist: Bool = true) throws -> PluginHost.Host {
        let apiBaseURL = try resolvedAPIBaseURL()
        let allowedURLs = try resolvedAllowedURLs()
        let trust = try trust(mustExist: trustMustExist)
        let level: Logger.Level = verbose ? .debug : .warning
        StderrLog.bootstrap(level: level)
        let discovery = try discovery()
        return PluginHost.Host.live(
            discovery: discovery, apiBaseURL: apiBaseURL, allowedURLs: allowedURLs, grantOption: "--allow-url", network: try network.settings(),
            logger: Logger(label: "host"), trust: trust, names: .host)
    }

    /// Wires the production host and learns what its plugins provide: from
    /// the registry cache, scanning what changed, or by loading them all
    /// with `--no-cache`. Call `shutdown()` on the result when done.
    func loadPlugins() async throws -> LoadedPlugins {
        let options = try loadOptions()
        if options.policy.mayIsolate || options.cache != .off {
            try checkSandboxSwitch()
        }
        return try await host().loadPlugins(options)
    }

    /// ``loadPlugins()`` as far as it goes without a task: the plugins, from
    /// a warm cache or loaded in-process without one, or the rest of the work.
    func loadPluginsWithoutWaiting() throws -> PreparedLoad {
        try host().loadPluginsWithoutWaiting(try loadOptions())
    }

    /// Refuses a bad `HOST_SANDBOX_DISABLE` before any worker starts.
    func checkSandboxSwitch() throws {
        do {
            // Read here to refuse a bad value; isolationOptions() hands the layers to the workers.
            _ = try SandboxLayers(naming: ProcessEnvironment.value(of: Self.sandboxDisableVariable) ?? "")
        } catch {
            throw ValidationError("\(Self.sandboxDisableVariable) \(error), or unset it")
        }
    }
}
