import PluginABI
import PluginBoundary
import WorkerProtocol

/// What the worker's plugin reaches through `pb_host_services`: the same
/// registration rules as in the host, and every other service forwarded to
/// the host over the pipe.
///
/// The worker checks no URL: every request goes, as the plugin wrote it, to
/// the host, whose services check it like any other. Checking here too
/// would guard nothing, since the worker runs the plugin's code.
final class WorkerSession: PluginServices {
    /// What the plugin registers.
    let registrations: FetcherRegistrations
    private let link: HostLink
    /// Configuration values as C strings that live as long as the process,
    /// `api_base_url` among them: the base the host's rule gives this plugin.
    private let configuration: [String: CString]
    private let defaultTimeoutMilliseconds: UInt32
    /// The least severe of the plugin's own lines the host wants; nil for none.
    private let logLevel: LogFrame.Level?

    /// A session for the plugin `descriptor` describes, loaded from `path` as `request` asks.
    init(path: String, descriptor: PluginDescriptor, request: LoadRequest, link: HostLink) {
        let name = descriptor.name
        // The host's rules' warnings, which the user must act on: sent whatever the plugin's lines' level.
        registrations = FetcherRegistrations(path: path, name: name) { line in link.log(.warning, line, threshold: .warning) }
        self.link = link
        var values = request.configuration
        let base = request.apiBases.base(for: name, declared: descriptor.metadata.apiBaseURL)
        values["api_base_url"] = base.url.isEmpty ? nil : base.url
        configuration = values.mapValues(CString.init)
        defaultTimeoutMilliseconds = request.defaultTimeoutMilliseconds
        logLevel = request.logLevel
    }

    /// Runs the plugin's `register_plugin` with this session's services.
    /// - Returns: What `register_plugin` returned.
    func register(_ descriptor: PluginDescriptor) -> pb_status {
        registrations.open()
        defer { registrations.close() }
        return descriptor.register(ServicesTable.make(for: self))
    }

    func registerFetcher(_ fetcher: UnsafePointer<pb_fetcher>) -> pb_status {
        // No owner: which plugin keeps a symbol is the host's decision.
        registrations.register(fetcher)
    }

    func log(_ level: pb_log_level, _ message: String) {
        let level: LogFrame.Level =
            switch level {
            case PB_LOG_DEBUG: .debug
            case PB_LOG_INFO: .info
            case PB_LOG_WARNING: .warning
            default: .error
            }
        if level == .error { registrations.noteError(message) }
        guard let logLevel else { return }
        link.log(level, message, threshold: logLevel)
    }

    func configValue(_ key: String) -> UnsafePointer<CChar>? {
        configuration[key]?.pointer
    }

    func httpGet(_ url: String, timeoutMilliseconds: UInt32, reply: HTTPReply) {
        if let logLevel { link.log(.debug, "GET \(url)", threshold: logLevel) }
        link.httpGet(url, timeoutMilliseconds: timeoutMilliseconds == 0 ? defaultTimeoutMilliseconds : timeoutMilliseconds, reply: reply)
    }
}
