import Logging
import PluginABI
import PluginBoundary
import Synchronization

/// The host's side of one plugin it loads itself: what its `host_context`
/// reaches (see ``ServicesTable``).
///
/// A session outlives everything: the plugin may keep the services table and
/// call `log`, `config_value` or `http_get` from any thread for the rest of
/// the process, so sessions are retained forever once handed out.
final class PluginSession: PluginServices {
    /// The plugin file, as found.
    let path: String
    /// The descriptor's name, for messages about this plugin.
    let name: String
    let services: HostServices
    let logger: Logger
    /// What the plugin registers.
    let registrations: FetcherRegistrations
    /// Its API base and what it may fetch.
    let endpoint: PluginEndpoint
    /// `config_value("api_base_url")`: its base, as a C string that lives
    /// as long as the process; nil when it has none.
    private let apiBaseURL: CString?
    /// What it may ask of the host, and has.
    let allowance: PluginAllowance
    /// `http_get` requests started and not yet answered, so a timeout can
    /// blame the network or the plugin.
    private let requestsInFlight = Atomic<Int>(0)

    /// - Parameter label: How its log lines name it (``PluginIdentity/label``):
    ///   by name when vouched for, else with its file too.
    init(path: String, name: String, label: String, services: HostServices, endpoint: PluginEndpoint) {
        self.path = path
        self.name = name
        self.services = services
        self.endpoint = endpoint
        self.apiBaseURL = endpoint.base.url.isEmpty ? nil : CString(endpoint.base.url)
        var logger = services.logger
        logger[metadataKey: "plugin"] = "\(label)"
        self.logger = logger
        let hostLogger = services.logger
        registrations = FetcherRegistrations(path: path, name: name) { hostLogger.warning("\($0)") }
        allowance = services.allowances.make(for: name)
    }

    /// Runs the plugin's `register_plugin` with this session's services.
    /// - Returns: What `register_plugin` returned.
    func register(_ descriptor: PluginDescriptor) -> pb_status {
        registrations.open()
        defer { registrations.close() }
        return descriptor.register(ServicesTable.make(for: self))
    }

    /// Handles `register_fetcher`: another plugin's fetcher for the same
    /// symbol is no obstacle, since several may provide one.
    func registerFetcher(_ fetcher: UnsafePointer<pb_fetcher>) -> pb_status {
        registrations.register(fetcher)
    }

    /// Whether the plugin is waiting on the network right now.
    var isWaitingOnNetwork: Bool { requestsInFlight.load(ordering: .relaxed) > 0 }

    /// Handles `log`, remembering the last error so a failed registration can
    /// say why; shown only with `-v` (``HostServices/showsPluginLines``).
    func log(_ level: pb_log_level, _ message: String) {
        let level = Self.level(level)
        if level == .error { registrations.noteError(message) }
        // Counted against the cap only when it would be shown.
        guard services.showsPluginLines, level >= logger.logLevel, allowance.admitLogLine() else { return }
        logger.log(level: level, "\(message)")
    }

    /// The host's level for a plugin's `pb_log_level`.
    private static func level(_ level: pb_log_level) -> Logger.Level {
        switch level {
        case PB_LOG_DEBUG: .debug
        case PB_LOG_INFO: .info
        case PB_LOG_WARNING: .warning
        default: .error
        }
    }

    /// Handles `config_value`: its own API base, or a value every plugin shares.
    func configValue(_ key: String) -> UnsafePointer<CChar>? {
        key == "api_base_url" ? apiBaseURL?.pointer : services.configValue(key)
    }

    /// Performs `http_get` with the host's services, which check the URL,
    /// as far as the plugin's allowance goes: past it, the plugin gets the
    /// refusal, and the host warns the first time.
    func httpGet(_ url: String, timeoutMilliseconds: UInt32, reply: HTTPReply) {
        let timeout = timeoutMilliseconds == 0 ? services.defaultTimeout : .milliseconds(Int64(timeoutMilliseconds))
        logger.debug("GET \(PluginOutputRules.echoed(url))")
        if let (refusal, first) = allowance.startRequest() {
            if first { services.logger.warning("plugin \(name): \(refusal)") }
            return reply.fail(refusal.description)
        }
        requestsInFlight.add(1, ordering: .relaxed)
        let (services, plugin, policy, allowance) = (services, name, endpoint.policy, allowance)
        Task {
            let outcome = await services.get(url, timeout: timeout, policy: policy, for: plugin)
            requestsInFlight.subtract(1, ordering: .relaxed)
            allowance.requestFinished()
            switch outcome {
            case .response(let status, let body): reply.respond(status: status, body: body)
            case .failure(let reason): reply.fail(reason)
            }
        }
    }
}
