import FoundationEssentials
import PluginBoundary
import WorkerProtocol
import Logging

/// The production host's composition root: the command line's settings and
/// the environment, checked and turned into a ``Host`` and the options
/// its loads take.
///
/// A setting on the command line wins over its environment variable, which
/// wins over the default. Every failure is a ``HostSettingError``, worded
/// with ``names``.
package struct HostWiring: Sendable {
    /// What the command line said.
    package let settings: HostSettings
    /// The environment variables and the current directory.
    package let environment: HostEnvironment
    /// The program's names for its settings, for messages and the reasons listings give.
    package let names: SettingNames

    /// The API of a plugin that declares none, when the user names no other.
    package static let defaultAPIBaseURL = APIBases.coinbase

    /// Prepares to wire a host; nothing is checked until asked for.
    /// - Parameters:
    ///   - settings: What the command line said.
    ///   - environment: The environment, by default the running process's.
    ///   - names: The program's names for its settings.
    package init(settings: HostSettings, environment: HostEnvironment = .current, names: SettingNames) {
        self.settings = settings
        self.environment = environment
        self.names = names
    }

    /// Wires the production host, without loading anything.
    /// - Parameters:
    ///   - logger: Where the host's and the plugins' log lines go.
    ///   - advice: What a refused certificate's message suggests.
    package func host(logger: Logger, advice: NetworkAdvice) throws(HostSettingError) -> Host {
        let apiBases = try apiBases()
        let allowedURLs = try allowedURLs()
        let discovery = try discovery()
        let trust = trust()
        if let problem = trust.store?.problem(naming: names) {
            logger.warning("your trust store vouches for nothing until it is fixed: \(problem)")
        }
        if let problem = trust.grants?.problem(naming: names) {
            logger.warning("your network grants grant nothing until they are fixed: \(problem)")
        }
        return Host.live(
            discovery: discovery, apiBases: apiBases, allowedURLs: allowedURLs, grantOption: names.allowURL, baseOption: names.apiBaseURL,
            network: try networkSettings(advice: advice), logger: logger, trust: trust, names: names)
    }

    /// Each plugin's API base: the settings, else `HOST_API_BASE_URL`
    /// (entries separated by spaces), over what each plugin declares.
    package func apiBases() throws(HostSettingError) -> APIBases {
        let (entries, origin): ([String], HostSettingError.Origin) =
            if !settings.apiBaseURLs.isEmpty { (settings.apiBaseURLs, .option) }
            else { ((environment[.apiBaseURL] ?? "").split(whereSeparator: \.isWhitespace).map(String.init), .variable(.apiBaseURL)) }
        do {
            return try APIBases(parsing: entries)
        } catch {
            throw HostSettingError(kind: .apiBase(error, from: origin))
        }
    }

    /// The prefixes granted beyond the API base: the settings, else `HOST_ALLOW_URLS`.
    package func allowedURLs() throws(HostSettingError) -> [URLPrefix] {
        let (texts, origin): ([String], HostSettingError.Origin) =
            if !settings.allowedURLs.isEmpty { (settings.allowedURLs, .option) }
            else { ((environment[.allowURLs] ?? "").split(whereSeparator: \.isWhitespace).map(String.init), .variable(.allowURLs)) }
        var prefixes: [URLPrefix] = []
        for text in texts {
            do {
                prefixes.append(try URLPrefix(text))
            } catch {
                throw HostSettingError(kind: .grantNotPrefix(error, from: origin))
            }
        }
        return prefixes
    }

    /// Where plugins run: everything in workers or everything in-process
    /// when a switch says so (the isolate setting, `HOST_ISOLATE`, or a
    /// required sandbox), else by who vouches for each plugin. A required
    /// sandbox with isolation turned off is a contradiction.
    package func policy() throws(HostSettingError) -> IsolationPolicy {
        let requiredBy = try sandboxRequirement()
        if let isolate = settings.isolate {
            if let requiredBy, !isolate {
                throw HostSettingError(kind: .sandboxSwitchedOff(requiredBy: requiredBy, switchedOffBy: .option))
            }
            return isolate ? .everything(because: names.isolateAll) : .nothing(because: names.isolateNone)
        }
        // A setting wins over a variable.
        if settings.requireSandbox { return .everything(because: names.requireSandbox) }
        let fromEnvironment = try boolean(.isolate)
        if let requiredBy {
            if fromEnvironment == false {
                throw HostSettingError(kind: .sandboxSwitchedOff(requiredBy: requiredBy, switchedOffBy: .variable(.isolate)))
            }
            return .everything(because: HostSettingError.requirement(requiredBy, names: names))
        }
        switch fromEnvironment {
        case true?: return .everything(because: "HOST_ISOLATE=1")
        case false?: return .nothing(because: "HOST_ISOLATE=0")
        case nil: return .byTrust
        }
    }

    /// What requires a full sandbox, the setting or `HOST_REQUIRE_SANDBOX=1`,
    /// or nil when neither does.
    package func sandboxRequirement() throws(HostSettingError) -> HostSettingError.Origin? {
        if settings.requireSandbox { return .option }
        return try boolean(.requireSandbox) == true ? .variable(.requireSandbox) : nil
    }

    /// `$XDG_CACHE_HOME`, or `$HOME/.cache`: where the scan cache is kept.
    package func cacheHome() -> String? {
        ScanCacheUse.cacheHome(xdgCacheHome: environment[.xdgCacheHome], home: environment[.home])
    }

    /// Whether the scan cache is used: not when the settings or
    /// `HOST_NO_CACHE=1` turn it off, nor when there is nowhere to keep it.
    package func cacheUse() throws(HostSettingError) -> ScanCacheUse {
        if settings.noCache { return .off }
        if try boolean(.noCache) == true { return .off }
        guard let home = cacheHome() else { return .off }
        return .use(cacheHome: home)
    }

    /// How the command's workers run: the scanners, and isolated plugins.
    package func isolationOptions() throws(HostSettingError) -> IsolationOptions {
        IsolationOptions(
            loadTimeout: settings.loadTimeout, requireFullSandbox: try sandboxRequirement() != nil, skippedSandboxLayers: try skippedSandboxLayers(),
            memoryBudget: try memoryBudget())
    }

    /// What all of the run's workers may take together: the setting, else
    /// `HOST_MEMORY_BUDGET`, else ``MemoryBudget/standard``.
    package func memoryBudget() throws(HostSettingError) -> MemoryBudget {
        let (text, origin): (String?, HostSettingError.Origin) =
            settings.memoryBudget.map { ($0, .option) } ?? (environment[.memoryBudget], .variable(.memoryBudget))
        guard let text else { return .standard }
        do {
            return try MemoryBudget(parsing: text)
        } catch {
            throw HostSettingError(kind: .memoryBudget(error, from: origin))
        }
    }

    /// Everything that says how plugins are found out about and loaded.
    package func loadOptions() throws(HostSettingError) -> LoadOptions {
        LoadOptions(policy: try policy(), isolation: try isolationOptions(), cache: try cacheUse(), ranks: try ranks())
    }

    /// The user's ranks: `HOST_RANKS=PLUGIN:RANK,…`.
    package func ranks() throws(HostSettingError) -> RankOverrides {
        do {
            return try RankOverrides(parsing: environment[.ranks] ?? "")
        } catch {
            throw HostSettingError(kind: .ranks(error))
        }
    }

    /// The trust policy: the allowlist setting, else each directory's
    /// `plugins.lock`; and the user's trust store, read now.
    package func trust() -> PluginTrust {
        let path = trustStorePath()
        let store = path.map(TrustStore.read(at:))
        let grants = path.map { NetworkGrants.read(at: NetworkGrants.path(besideTrustStore: $0)) }
        guard let allowlist = settings.allowlist else { return PluginTrust(store: store, grants: grants) }
        return PluginTrust(allowlist: .file(allowlist), store: store, grants: grants)
    }

    /// `$XDG_CONFIG_HOME/patchbay/trusted-plugins`, or under `$HOME/.config`;
    /// nil when neither variable says where.
    package func trustStorePath() -> String? {
        TrustStore.configHome(xdgConfigHome: environment[.xdgConfigHome], home: environment[.home]).map(TrustStore.path(configHome:))
    }

    /// The plugin search path from the settings, `HOST_PLUGINS_DIR` or the usual directories.
    package func discovery() throws(HostSettingError) -> PluginDiscovery {
        do {
            return try PluginDiscovery(
                flags: settings.pluginsDirectories,
                environment: environment[.pluginsDirectories],
                bundledDirectory: InstalledLayout.running.bundledPluginsDirectory,
                dataHome: PluginDiscovery.dataHome(xdgDataHome: environment[.xdgDataHome], home: environment[.home]),
                workingDirectory: environment.workingDirectory
            )
        } catch {
            throw HostSettingError(kind: .pluginsDirectoriesEmptyEntry(value: error.environmentValue))
        }
    }

    /// The sandbox layers `HOST_SANDBOX_DISABLE` turns off, for tests and
    /// benchmarks; checked before any worker starts.
    package func skippedSandboxLayers() throws(HostSettingError) -> SandboxLayers {
        do {
            return try SandboxLayers(naming: environment[.sandboxDisable] ?? "")
        } catch {
            throw HostSettingError(kind: .unknownSandboxLayer(error))
        }
    }

    /// The trust roots and proxies from the settings, else the environment,
    /// as curl and OpenSSL read it.
    /// - Parameter advice: What a refused certificate's message suggests.
    package func networkSettings(advice: NetworkAdvice) throws(HostSettingError) -> NetworkSettings {
        var paths: [String] = []
        if let file = environment.nonEmpty(.sslCertFile) { paths.append(file) }
        if let directories = environment.nonEmpty(.sslCertDirectories) { paths += directories.split(separator: ":").map(String.init) }
        paths += settings.caFiles
        return NetworkSettings(
            trust: TrustSettings(caPaths: paths, trustsSystemRoots: settings.trustsSystemRoots), proxy: try proxySettings(), advice: advice)
    }

    /// Proxies off, else the proxy setting for every scheme, else the
    /// variables curl reads, the lower-case name first.
    private func proxySettings() throws(HostSettingError) -> ProxySettings {
        if settings.noProxy { return .disabled(by: names.noProxy) }
        let (bypassSource, bypass) = environment.first(.noProxy, .noProxyUpperCase).map { ($0.variable.rawValue, $0.value) } ?? ("NO_PROXY", "")
        do throws(ProxyURLError) {
            if let proxy = settings.proxy {
                let server = try ProxyServer(proxy, source: names.proxy)
                return ProxySettings(https: server, http: server, bypass: NoProxyList(bypass), bypassSource: bypassSource)
            }
            let https = try environment.first(.httpsProxy, .httpsProxyUpperCase).map { (found) throws(ProxyURLError) in
                try ProxyServer(found.value, source: found.variable.rawValue)
            }
            let http = try environment.first(.httpProxy, .httpProxyUpperCase).map { (found) throws(ProxyURLError) in
                try ProxyServer(found.value, source: found.variable.rawValue)
            }
            return ProxySettings(https: https, http: http, bypass: NoProxyList(bypass), bypassSource: bypassSource)
        } catch {
            throw HostSettingError(kind: .proxy(error))
        }
    }

    /// A variable read as 1 or 0, or nil when it is unset or empty.
    private func boolean(_ variable: HostEnvironment.Variable) throws(HostSettingError) -> Bool? {
        guard let value = environment.nonEmpty(variable) else { return nil }
        // Exactly what the documents and the error name: "yes" or "on" read as 1 in one
        // place and as an error in another is how a switch is set wrong.
        switch value {
        case "1": return true
        case "0": return false
        default: throw HostSettingError(kind: .notBoolean(variable, value: value))
        }
    }
}
