import PluginHost

extension SettingNames {
    /// `host`'s flags and commands, for the fixes in the library's errors:
    /// the one place the CLI's words for them are written.
    static let host = SettingNames(
        fetchTimeout: "--timeout",
        loadTimeout: "--load-timeout",
        addPluginsDirectory: "pass --plugins-dir",
        listPlugins: "run `host list-plugins`",
        loadInProcess: "run without --isolate",
        lockPlugins: "`host lock-plugins`",
        trust: "`host trust`",
        untrust: "`host untrust`"
    )
}
