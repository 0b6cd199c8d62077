import PluginHost

extension SettingNames {
    /// `host`'s flags and commands, for the fixes in the library's errors:
    /// the one place the CLI's words for them are written.
    static let host: SettingNames = {
        var names = hostFlags
        names.memoryBudget = "--memory-budget"
        names.swiftToolchain = "Swift \(BuildInfo.swiftVersion), the toolchain that built this host (`host --version`)"
        names.allow = "`host allow`"
        return names
    }()

    /// The names ``host`` passes to the initialiser.
    private static let hostFlags = SettingNames(
        fetchTimeout: "--timeout",
        loadTimeout: "--load-timeout",
        addPluginsDirectory: "pass --plugins-dir",
        searchUsualDirectories: "drop --plugins-dir and HOST_PLUGINS_DIR to search the usual directories",
        listPlugins: "run `host list-plugins`",
        loadInProcess: "run without --isolate",
        lockPlugins: "`host lock-plugins`",
        apiBaseURL: "--api-base-url",
        allowURL: "--allow-url",
        isolateAll: "--isolate",
        isolateNone: "--no-isolate",
        requireSandbox: "--require-sandbox",
        proxy: "--proxy",
        noProxy: "--no-proxy",
        trust: "`host trust`",
        untrust: "`host untrust`",
        source: "--source",
        ranks: "HOST_RANKS",
        countUnvouched: "--count-unvouched"
    )
}
