import WorkerProtocol

/// A setting, from the command line or the environment, that the host
/// cannot be wired with.
///
/// Worded late, by ``message(naming:)``, with the program's names for its
/// settings: a library names no flag.
package struct HostSettingError: Error, Sendable, Equatable {
    /// Where a refused value came from.
    package enum Origin: Sendable, Equatable {
        /// The program's option for the setting, e.g. `--api-base-url`.
        case option
        /// An environment variable.
        case variable(HostEnvironment.Variable)
        /// The built-in default.
        case standard
    }

    enum Kind: Sendable, Equatable {
        case apiBase(APIBaseError, from: Origin)
        case ranks(RankOverrideError)
        case grantNotPrefix(URLPrefixError, from: Origin)
        case notBoolean(HostEnvironment.Variable, value: String)
        case sandboxSwitchedOff(requiredBy: Origin, switchedOffBy: Origin)
        case pluginsDirectoriesEmptyEntry(value: String)
        case unknownSandboxLayer(SandboxLayers.NameError)
        case proxy(ProxyURLError)
        case memoryBudget(MemoryBudgetError, from: Origin)
    }

    let kind: Kind

    /// One line: what was wrong, with its value, and how to fix it.
    /// - Parameter names: The program's names for its settings.
    package func message(naming names: SettingNames) -> String {
        switch kind {
        case .apiBase(let error, let origin):
            error.message(naming: Self.name(origin, option: names.apiBaseURL))
        case .ranks(let error):
            error.message(naming: HostEnvironment.Variable.ranks.rawValue)
        case .grantNotPrefix(let error, let origin):
            "\(Self.name(origin, option: names.allowURL)) \(error); give a prefix such as https://api.example.com/v2 or file:///srv/prices"
        case .notBoolean(let variable, let value):
            "\(variable.rawValue) '\(value)' is not 1 or 0; \(Self.booleanFix(variable))"
        case .sandboxSwitchedOff(let requiredBy, let switchedOffBy):
            "\(Self.requirement(requiredBy, names: names)) runs plugins in sandboxed workers, which \(Self.isolationOff(switchedOffBy, names: names)) turns off; drop one of the two"
        case .pluginsDirectoriesEmptyEntry(let value):
            "HOST_PLUGINS_DIR '\(value)' has an empty entry; name directories separated by ':', e.g. HOST_PLUGINS_DIR=plugins:/opt/plugins, or unset it to search the usual directories"
        case .unknownSandboxLayer(let error):
            "\(HostEnvironment.Variable.sandboxDisable.rawValue) \(error), or unset it"
        case .proxy(let error):
            "\(error); \(error.source == names.proxy ? "give e.g. \(names.proxy) http://proxy.example:3128" : "fix or unset it, or pass \(names.noProxy)")"
        case .memoryBudget(let error, let origin):
            error.message(naming: Self.name(origin, option: names.memoryBudget))
        }
    }

    /// `--api-base-url`, `HOST_API_BASE_URL` or "the default".
    private static func name(_ origin: Origin, option: String) -> String {
        switch origin {
        case .option: option
        case .variable(let variable): variable.rawValue
        case .standard: "the default"
        }
    }

    /// How to set a 1-or-0 variable right.
    private static func booleanFix(_ variable: HostEnvironment.Variable) -> String {
        switch variable {
        case .isolate: "set HOST_ISOLATE=1 to isolate every plugin, HOST_ISOLATE=0 to isolate none, or unset it"
        case .noCache: "set HOST_NO_CACHE=1 to load every plugin without the cache, or unset it"
        case .requireSandbox: "set HOST_REQUIRE_SANDBOX=1 to refuse plugins without a full sandbox, or unset it"
        default: "set \(variable.rawValue)=1 or \(variable.rawValue)=0, or unset it"
        }
    }

    /// What required the full sandbox: `--require-sandbox` or `HOST_REQUIRE_SANDBOX=1`.
    static func requirement(_ origin: Origin, names: SettingNames) -> String {
        if case .variable(let variable) = origin { "\(variable.rawValue)=1" } else { names.requireSandbox }
    }

    /// What turned isolation off: `--no-isolate` or `HOST_ISOLATE=0`.
    private static func isolationOff(_ origin: Origin, names: SettingNames) -> String {
        if case .variable(let variable) = origin { "\(variable.rawValue)=0" } else { names.isolateNone }
    }
}
