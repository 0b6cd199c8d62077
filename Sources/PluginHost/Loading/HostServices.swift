import FoundationEssentials
import HostShared
import Logging
import PluginBoundary
import Synchronization

/// What every plugin is offered through `pb_host_services`, shared by all
/// plugins of one host.
///
/// This is the seam the host's composition root fills: the networking the
/// host performs for plugins, the URLs it performs it for, the configuration
/// they may read, and where their log lines go.
///
/// `http_get` is a capability with a policy, never a proxy: every URL a
/// plugin asks for, and every redirect it leads to, is checked against a
/// ``URLPolicy`` in `get(_:timeout:for:)`, the one path both in-process
/// plugins and workers' requests take.
package final class HostServices: Sendable {
    /// What every URL is checked against.
    private let urlPolicy: URLPolicy
    /// Performs what the policy allows; reached only through `get(_:timeout:for:)`.
    private let networking: any HostNetworking

    /// Used when a plugin asks for an HTTP timeout of 0.
    package let defaultTimeout: Duration
    /// Receives the plugins' log lines, with `plugin` metadata.
    package let logger: Logger
    /// When a transient answer is asked for again, within the request's deadline.
    let retries: RetryPolicy
    /// What the program calls the settings its users change, for the fixes
    /// the host's messages suggest.
    package let names: SettingNames

    /// Configuration values as C strings that live as long as the process,
    /// because `config_value` hands out pointers to them.
    private let configuration: [String: CString]
    /// The same values as Swift strings, for workers.
    let configurationValues: [String: String]

    /// The most redirects one `http_get` follows, each checked.
    static let maximumRedirects = 5

    /// What each plugin has asked of these services in this run (``PluginAllowance``).
    let allowances = PluginAllowances()

    /// Creates the services.
    /// - Parameters:
    ///   - networking: Performs every plugin HTTP request the policy allows.
    ///   - configuration: Values plugins read with `config_value`, e.g.
    ///     `["api_base_url": "https://api.coinbase.com"]`.
    ///   - urlPolicy: The URLs plugins may fetch; by default those under
    ///     the configuration's `api_base_url`, and none without one.
    ///   - defaultTimeout: The timeout for requests that do not name one.
    ///   - logger: Where plugin log lines go, and refusals.
    ///   - retryPolicy: When a 429, a 5xx or a dropped connection is asked again.
    ///   - names: The program's names for its settings, e.g. `--load-timeout`.
    package init(
        networking: any HostNetworking,
        configuration: [String: String],
        urlPolicy: URLPolicy? = nil,
        defaultTimeout: Duration = .seconds(10),
        logger: Logger,
        retryPolicy: RetryPolicy = .standard,
        names: SettingNames = SettingNames()
    ) {
        self.urlPolicy = urlPolicy ?? .apiBase(configuration["api_base_url"] ?? "")
        self.networking = networking
        self.configuration = configuration.mapValues(CString.init)
        self.configurationValues = configuration
        self.defaultTimeout = defaultTimeout
        self.logger = logger
        self.retries = retryPolicy
        self.names = names
    }

    /// The URLs plugins may fetch, as text, the API base first.
    package var allowedURLs: [String] {
        urlPolicy.allowedURLs
    }

    /// Performs a plugin's `http_get`: checks the URL against the policy,
    /// fetches it, and follows each redirect the policy also allows, up to
    /// ``maximumRedirects``.
    ///
    /// A refusal is logged as a warning naming the plugin and the URL, and
    /// answered as a failure whose text the plugin can show.
    /// - Parameters:
    ///   - text: The URL as the plugin wrote it.
    ///   - timeout: The deadline for the whole request, redirects included.
    ///   - plugin: The plugin's name, for the warning.
    /// - Returns: What the plugin's completion gets.
    func get(_ text: String, timeout: Duration, for plugin: String) async -> HTTPOutcome {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        guard text.utf8.count <= URLPolicy.maximumLength else {
            return refuse(URLRefusal(url: text, .tooLong(bytes: text.utf8.count)), for: plugin)
        }
        var current: StrictURL
        do {
            current = try urlPolicy.check(text)
        } catch {
            return refuse(error, for: plugin)
        }
        for hop in 0...Self.maximumRedirects {
            // The first hop gets the whole timeout, so a timeout reads as
            // the one asked for; later hops get what is left of it.
            let remaining = hop == 0 ? timeout : deadline - clock.now
            guard remaining > .zero else { return .failure("timed out after \(timeout.humanReadable)") }
            guard let url = URL(string: current.text) else { return .failure("invalid URL \"\(PluginOutputRules.echoed(current.text))\"") }
            switch await hopRetrying(networking, url, timeout: remaining, deadline: deadline, asked: timeout, plugin: plugin) {
            case .outcome(let outcome), .transient(let outcome, _):
                return outcome
            case .refused(let reason):
                return refuse(URLRefusal(url: text, .networking(reason)), for: plugin)
            case .redirect(let status, let location):
                guard hop < Self.maximumRedirects else {
                    return .failure("\(PluginOutputRules.echoed(text)) redirected more than \(Self.maximumRedirects) times; the last was \(status) to \(PluginOutputRules.echoed(location))")
                }
                do {
                    current = try urlPolicy.checkRedirect(to: location, from: current, asked: text)
                } catch {
                    return refuse(error, for: plugin)
                }
            }
        }
        return .failure("\(PluginOutputRules.echoed(text)) redirected more than \(Self.maximumRedirects) times")
    }

    private func refuse(_ refusal: URLRefusal, for plugin: String) -> HTTPOutcome {
        logger.warning("plugin \(plugin): \(refusal)")
        return .failure(refusal.description)
    }

    /// The process-lifetime C string for `key`, or nil.
    func configValue(_ key: String) -> UnsafePointer<CChar>? {
        configuration[key]?.pointer
    }
}
