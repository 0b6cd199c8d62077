/// What the program built on this library calls the settings a user can
/// change, for the fixes its error messages suggest.
///
/// The library knows a fetch timeout, not a flag: `host` words each setting
/// as its flag ("raise --timeout"), another program as its own. Errors keep
/// their cases and fields, and are worded late, by
/// ``FetchError/message(naming:)`` and its kin, with the caller's names.
///
/// ```swift
/// let names = SettingNames(fetchTimeout: "the PRICES_TIMEOUT variable")
/// print(error.message(naming: names))   // "…; raise the PRICES_TIMEOUT variable to wait longer, …"
/// ```
package struct SettingNames: Sendable, Equatable {
    /// The limit on each fetch.
    package var fetchTimeout: String
    /// The limit on a plugin's load in an isolated worker.
    package var loadTimeout: String
    /// How to name another plugins directory, as an imperative.
    package var addPluginsDirectory: String
    /// How to go back to the usual plugin directories, as an imperative.
    package var searchUsualDirectories: String
    /// How to see why each plugin file failed, as an imperative.
    package var listPlugins: String
    /// How to load plugins in this process rather than in workers, as an imperative.
    package var loadInProcess: String
    /// The command that writes lock files, as a noun.
    package var lockPlugins: String
    /// The setting of the API's base URL.
    package var apiBaseURL: String
    /// The setting that grants plugins one more URL prefix.
    package var allowURL: String
    /// The switch that runs every plugin in a worker.
    package var isolateAll: String
    /// The switch that runs every plugin in-process.
    package var isolateNone: String
    /// The switch that refuses plugins without the full sandbox.
    package var requireSandbox: String
    /// The setting of the proxy for every request.
    package var proxy: String
    /// The switch that turns proxies off.
    package var noProxy: String
    /// The command that vouches for a plugin file, as a noun.
    package var trust: String
    /// The command that takes a vouch back, as a noun.
    package var untrust: String
    /// The setting that asks one plugin alone for a symbol.
    package var source: String
    /// The setting of the user's ranks, by plugin.
    package var ranks: String
    /// The command that scans every plugin file now, for a run that left some unscanned.
    package var rescan = "run `host rescan`"
    /// The setting of what all plugin workers may take together.
    package var memoryBudget = "the memory budget"
    /// The Swift toolchain the program was built with, for a plugin that
    /// needs a runtime library the program does not have.
    package var swiftToolchain = "the Swift toolchain that built this program"
    /// The command that lets a plugin file fetch under a URL, still sandboxed, as a noun.
    package var allow = "the program's allow command"
    /// The switch that counts answers of plugins nobody vouched for in a consensus.
    package var countUnvouched: String

    /// Names for a program that has said nothing about its settings.
    /// - Parameters:
    ///   - fetchTimeout: e.g. "--timeout".
    ///   - loadTimeout: e.g. "--load-timeout".
    ///   - addPluginsDirectory: e.g. "pass --plugins-dir".
    ///   - searchUsualDirectories: e.g. "drop --plugins-dir and HOST_PLUGINS_DIR to search the usual directories".
    ///   - listPlugins: e.g. "run `host list-plugins`".
    ///   - loadInProcess: e.g. "run without --isolate".
    ///   - lockPlugins: e.g. "`host lock-plugins`".
    ///   - apiBaseURL: e.g. "--api-base-url".
    ///   - allowURL: e.g. "--allow-url".
    ///   - isolateAll: e.g. "--isolate".
    ///   - isolateNone: e.g. "--no-isolate".
    ///   - requireSandbox: e.g. "--require-sandbox".
    ///   - proxy: e.g. "--proxy".
    ///   - noProxy: e.g. "--no-proxy".
    ///   - trust: e.g. "`host trust`".
    ///   - untrust: e.g. "`host untrust`".
    ///   - source: e.g. "--source".
    ///   - ranks: e.g. "HOST_RANKS".
    ///   - countUnvouched: e.g. "--count-unvouched".
    package init(
        fetchTimeout: String = "the fetch timeout",
        loadTimeout: String = "the load timeout",
        addPluginsDirectory: String = "name a plugins directory",
        searchUsualDirectories: String = "name no directory, to search the usual ones",
        listPlugins: String = "list the plugins",
        loadInProcess: String = "load plugins in-process",
        lockPlugins: String = "the program's lock command",
        apiBaseURL: String = "the API base URL",
        allowURL: String = "the URL grant",
        isolateAll: String = "isolating every plugin",
        isolateNone: String = "isolating no plugin",
        requireSandbox: String = "requiring the sandbox",
        proxy: String = "the proxy",
        noProxy: String = "the no-proxy switch",
        trust: String = "the program's trust command",
        untrust: String = "the program's untrust command",
        source: String = "the source setting",
        ranks: String = "the ranks setting",
        countUnvouched: String = "the switch that counts unvouched sources"
    ) {
        self.fetchTimeout = fetchTimeout
        self.loadTimeout = loadTimeout
        self.addPluginsDirectory = addPluginsDirectory
        self.searchUsualDirectories = searchUsualDirectories
        self.listPlugins = listPlugins
        self.loadInProcess = loadInProcess
        self.lockPlugins = lockPlugins
        self.apiBaseURL = apiBaseURL
        self.allowURL = allowURL
        self.isolateAll = isolateAll
        self.isolateNone = isolateNone
        self.requireSandbox = requireSandbox
        self.proxy = proxy
        self.noProxy = noProxy
        self.trust = trust
        self.untrust = untrust
        self.source = source
        self.ranks = ranks
        self.countUnvouched = countUnvouched
    }
}
