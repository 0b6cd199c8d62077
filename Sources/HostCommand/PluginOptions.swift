import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import PluginBoundary
import PluginHost

/// The options every subcommand takes: where plugins are and what they talk to.
struct PluginOptions: ParsableArguments {
    /// How a setting names one plugin (``PluginSelector``), for the help
    /// of every command that takes one: a name reaches only vouched plugins.
    static let selectorRule = """
        HOST_RANKS=PLUGIN:RANK, --api-base-url PLUGIN=URL and fetch's --source PLUGIN match a plugin by its name \
        only if someone vouched for it (bundled, host trust, --allowlist), and a plugin nobody vouched for only by \
        its file: e.g. --source ./plugins/libX.so or HOST_RANKS=./plugins/libX.so:200.
        """

    @Option(
        name: .customLong("plugins-dir"),
        help: ArgumentHelp("A directory to load plugins from; repeat for more. Overrides HOST_PLUGINS_DIR.", valueName: "dir")
    )
    var pluginsDirectories: [String] = []

    @Option(
        name: .customLong("api-base-url"),
        help: ArgumentHelp(
            "The API every plugin talks to (URL), or one plugin (PLUGIN=URL, repeatable): http, https or file. A plugin may fetch only under its own. PLUGIN is a vouched plugin's name, or any plugin's file (e.g. ./plugins/libX.so): a name never matches a plugin nobody vouched for. Overrides HOST_API_BASE_URL (space-separated). (default: the one each plugin declares, else \(HostWiring.defaultAPIBaseURL))",
            valueName: "[plugin=]url"
        )
    )
    var apiBaseURLs: [String] = []

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

    @Flag(name: .shortAndLong, help: "Show no progress line while plugins are scanned (shown only when stderr is a terminal).")
    var quiet = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Run every plugin in a sandboxed worker process of its own (--isolate), or every plugin in this process (--no-isolate). By default, plugins bundled with the host or vouched for in your trust store (host trust) or the --allowlist run in this process and the rest in workers. Overrides HOST_ISOLATE=1 or 0."
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
        name: .customLong("memory-budget"),
        help: ArgumentHelp(
            "What all plugin workers may take together, e.g. 2GiB or 1536MiB (at least 1GiB): each worker gets half of it, at most 2GiB, and workers of plugins nobody vouched for run that many at a time. Overrides HOST_MEMORY_BUDGET. (default: 2GiB)",
            valueName: "size")
    )
    var memoryBudget: String?

    @Option(
        name: .customLong("allowlist"),
        help: ArgumentHelp(
            "A lock file of SHA-256 digests (sha256sum format) that every plugin must match; the plugins it lists run in this process. (default: plugins.lock in each plugins directory, when present, which only pins)",
            valueName: "file"
        )
    )
    var allowlist: String?

    @OptionGroup(title: "Network")
    var network: NetworkOptions

    /// What these flags ask of the host, unchecked.
    var settings: HostSettings {
        var settings = HostSettings()
        settings.pluginsDirectories = pluginsDirectories
        settings.apiBaseURLs = apiBaseURLs
        settings.allowedURLs = allowURLs
        settings.isolate = isolate
        settings.noCache = noCache
        settings.requireSandbox = requireSandbox
        settings.loadTimeout = loadTimeout.duration
        settings.memoryBudget = memoryBudget
        settings.allowlist = allowlist
        settings.caFiles = network.caFiles
        settings.trustsSystemRoots = !network.noSystemCA
        settings.proxy = network.proxy
        settings.noProxy = network.noProxy
        return settings
    }

    /// The composition root for these flags and the process's environment.
    var wiring: HostWiring {
        HostWiring(settings: settings, names: .host)
    }

    /// Runs `body`, turning a setting the host cannot use into the parser's usage error.
    func checked<T>(_ body: (HostWiring) throws -> T) throws -> T {
        do {
            return try body(wiring)
        } catch let error as HostSettingError {
            throw ValidationError(error.message(naming: .host))
        }
    }

    /// Wires the production host, without loading anything, with the log
    /// lines `--verbose` asks for.
    /// - Parameter trustMustExist: Whether `--allowlist` is read (loading)
    ///   rather than written (`lock-plugins`), and so must be readable.
    func host(trustMustExist: Bool = true) throws -> PluginHost.Host {
        if trustMustExist { try checkAllowlistReadable() }
        StderrLog.bootstrap(level: verbose ? .debug : .warning)
        return try checked { wiring in try wiring.host(logger: Logger(label: "host"), advice: network.networkAdvice) }
    }

    /// Wires the production host and learns what its plugins provide: from
    /// the scan cache, scanning what changed, or by loading them all
    /// with `--no-cache`. Call `shutdown()` on the result when done.
    /// - Parameters:
    ///   - reportingSandbox: The command shows each plugin's sandbox,
    ///     which is then judged for this run (`list-plugins`).
    ///   - fetching: The symbols the command fetches: their workers start during the listing.
    ///   - strangerScanTime: How long scans of new files nobody vouched for may take (a fetch's `--timeout`).
    func loadPlugins(reportingSandbox: Bool = false, fetching: [String] = [], strangerScanTime: Duration? = nil) async throws -> LoadedPlugins {
        var options = try loadOptions(reportingSandbox: reportingSandbox)
        options.fetching = fetching
        options.strangerScanTime = strangerScanTime
        return try await host().loadPlugins(options)
    }

    /// ``loadPlugins(reportingSandbox:)`` as far as it goes without a task: the plugins, from
    /// a warm cache or loaded in-process without one, or the rest of the work.
    func loadPluginsWithoutWaiting(reportingSandbox: Bool = false) throws -> PreparedLoad {
        let host = try host()
        return host.loadPluginsWithoutWaiting(try loadOptions(reportingSandbox: reportingSandbox))
    }

    /// How plugins are found out about and loaded, with the progress line of
    /// a scan. Refuses a bad `HOST_SANDBOX_DISABLE` on every path, a warm
    /// cache's too (``HostWiring/isolationOptions()``).
    func loadOptions(reportingSandbox: Bool = false) throws -> LoadOptions {
        var options = try checked { wiring in try wiring.loadOptions() }
        options.progress = ProgressLine.forScan(quiet: quiet)
        options.isolation.reportsSandbox = reportingSandbox
        return options
    }

    /// Why the working directory may explain an unknown symbol: the search
    /// includes `./plugins`, there is none here, but there is one in the
    /// folder the user is in or just below it, e.g. after `cd ..` out of a
    /// project `host new-plugin` made. Nil when nothing suggests it.
    func workingDirectoryHint() -> String? {
        let environment = HostEnvironment.current
        guard pluginsDirectories.isEmpty, environment[.pluginsDirectories] == nil else { return nil }
        let here = environment.workingDirectory
        guard access(here + "/plugins", F_OK) != 0 else { return nil }
        func hasPlugins(_ directory: String) -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasSuffix(".so") }
        }
        if here.hasSuffix("/plugins"), hasPlugins(here) {
            return "this folder is a plugins folder, and the host looks for ./plugins below the current one: run from its parent, or pass --plugins-dir ."
        }
        let below = ((try? FileManager.default.contentsOfDirectory(atPath: here)) ?? []).sorted().first { !$0.hasPrefix(".") && hasPlugins("\(here)/\($0)/plugins") }
        guard let below else { return nil }
        return "there is no ./plugins here, but \(below)/plugins has plugins: run from \(below), or pass --plugins-dir \(below)/plugins"
    }

    /// Refuses an `--allowlist` that cannot be read, before loading with it.
    private func checkAllowlistReadable() throws {
        guard let allowlist, access(allowlist, R_OK) != 0 else { return }
        let reason = SystemError(operation: "read", errno: errno).reason
        throw ValidationError(
            "--allowlist \(allowlist) cannot be read (\(reason)); create it with `host lock-plugins --allowlist \(allowlist)`, or fix the path")
    }
}
