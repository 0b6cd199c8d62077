import FoundationEssentials
import HostShared
import Logging
import PluginBoundary
import Synchronization

/// What every plugin is offered through `pb_host_services`, shared by all
/// plugins of one host.
///
/// This is the seam the host's composition root fills: the networking the
/// host performs for plugins, the API each plugin talks to and the URLs it
/// performs requests for, the configuration they may read, and where their
/// log lines go.
///
/// `http_get` is a capability with a policy, never a proxy: every URL a
/// plugin asks for, and every redirect it leads to, is checked against that
/// plugin's ``URLPolicy`` in `get(_:timeout:policy:for:)`, the one path both
/// in-process plugins and workers' requests take. Each plugin's policy is
/// its own API base and the user's grants (``endpoint(for:declared:grant:)``),
/// so one plugin's base never lets another fetch there.
package final class HostServices: Sendable {
    /// Performs what a policy allows; reached only through `get(_:timeout:policy:for:)`.
    private let networking: any HostNetworking
    /// Which API each plugin is told about.
    package let apiBases: APIBases
    /// The prefixes the user granted every plugin beyond its API base.
    let grants: [URLPrefix]
    /// How a user grants a prefix, e.g. `--allow-url`, for refusals to name.
    let grantOption: String?
    /// How a user sets one plugin's base, e.g. `--api-base-url`, for refusals to name.
    let baseOption: String?

    /// Used when a plugin asks for an HTTP timeout of 0.
    package let defaultTimeout: Duration
    /// Receives the plugins' log lines, with `plugin` metadata.
    package let logger: Logger

    /// Whether a plugin's own log lines (its `log` calls) are shown: only
    /// when the user asked for `-v`, which logs at debug. The host's own
    /// warnings about a plugin, which the user must act on, are shown
    /// whatever this says.
    var showsPluginLines: Bool { logger.logLevel <= .debug }
    /// When a transient answer is asked for again, within the request's deadline.
    let retries: RetryPolicy
    /// What the program calls the settings its users change, for the fixes
    /// the host's messages suggest.
    package let names: SettingNames

    /// Configuration values as C strings that live as long as the process,
    /// because `config_value` hands out pointers to them. `api_base_url` is
    /// not among them: each plugin's is its own (``PluginEndpoint``).
    private let configuration: [String: CString]
    /// The same values as Swift strings, for workers.
    let configurationValues: [String: String]

    /// The most redirects one `http_get` follows, each checked.
    static let maximumRedirects = 5

    /// What each plugin has asked of these services in this run (``PluginAllowance``).
    let allowances = PluginAllowances()

    /// Creates services that give every plugin one API base.
    /// - Parameters:
    ///   - networking: Performs every plugin HTTP request the policy allows.
    ///   - configuration: Values plugins read with `config_value`, e.g.
    ///     `["api_base_url": "https://api.coinbase.com"]`; its `api_base_url`
    ///     is every plugin's base, whatever a plugin declares.
    ///   - urlPolicy: The URLs plugins may fetch beyond that base, and how
    ///     a user grants more; by default none.
    ///   - defaultTimeout: The timeout for requests that do not name one.
    ///   - logger: Where plugin log lines go, and refusals.
    ///   - retryPolicy: When a 429, a 5xx or a dropped connection is asked again.
    ///   - names: The program's names for its settings, e.g. `--load-timeout`.
    package convenience init(
        networking: any HostNetworking,
        configuration: [String: String],
        urlPolicy: URLPolicy? = nil,
        defaultTimeout: Duration = .seconds(10),
        logger: Logger,
        retryPolicy: RetryPolicy = .standard,
        names: SettingNames = SettingNames()
    ) {
        self.init(
            networking: networking, apiBases: APIBases(everyPlugin: configuration["api_base_url"] ?? ""), grants: urlPolicy?.prefixes ?? [],
            grantOption: urlPolicy?.grantOption, configuration: configuration, defaultTimeout: defaultTimeout, logger: logger,
            retryPolicy: retryPolicy, names: names)
    }

    /// Creates the services.
    /// - Parameters:
    ///   - networking: Performs every plugin HTTP request the policy allows.
    ///   - apiBases: Which API each plugin is told about, and fetches under.
    ///   - grants: More prefixes every plugin may fetch under, granted by the user.
    ///   - grantOption: How a user grants a prefix, for refusals to name, e.g. `--allow-url`.
    ///   - baseOption: How a user sets one plugin's base, for refusals to name, e.g. `--api-base-url`.
    ///   - configuration: Other values plugins read with `config_value`,
    ///     e.g. `["host_abi_version": "1"]`; an `api_base_url` here is ignored.
    ///   - defaultTimeout: The timeout for requests that do not name one.
    ///   - logger: Where plugin log lines go, and refusals.
    ///   - retryPolicy: When a 429, a 5xx or a dropped connection is asked again.
    ///   - names: The program's names for its settings, e.g. `--load-timeout`.
    package init(
        networking: any HostNetworking, apiBases: APIBases, grants: [URLPrefix] = [], grantOption: String? = nil, baseOption: String? = nil,
        configuration: [String: String], defaultTimeout: Duration = .seconds(10), logger: Logger, retryPolicy: RetryPolicy = .standard,
        names: SettingNames = SettingNames()
    ) {
        self.networking = networking
        self.apiBases = apiBases
        self.grants = grants
        self.grantOption = grantOption
        self.baseOption = baseOption
        let others = configuration.filter { $0.key != "api_base_url" }
        self.configuration = others.mapValues(CString.init)
        self.configurationValues = others
        self.defaultTimeout = defaultTimeout
        self.logger = logger
        self.retries = retryPolicy
        self.names = names
    }

    /// The URLs a plugin that declares no base and is not named may fetch,
    /// as text, its API base first.
    package var allowedURLs: [String] {
        endpoint(for: nil, declared: nil).policy.allowedURLs
    }

    /// One plugin's API base and what it may fetch: its base when the user
    /// or the host chose it, or when the plugin declared it and someone
    /// vouched for the plugin (or it is the host's default anyway); the
    /// user's network grant for its file (`host allow`), while the file is
    /// the one granted; and the user's grants for every plugin.
    /// - Parameters:
    ///   - identity: The plugin, its file and who vouched for it; nil while
    ///   the host does not know it. A base the user gave by name applies
    ///   only to a vouched plugin of that name (``PluginSelector``).
    ///   - declared: The base its descriptor declares.
    ///   - claim: The user's network grant for this file and the digest of
    ///     the file as loaded or listed; a grant holds for a plugin nobody
    ///     vouched for only while the digests match.
    /// - Returns: The base it is told about and the policy its `http_get` is checked against.
    package func endpoint(for identity: PluginIdentity?, declared: String?, grant claim: NetworkGrant.Claim? = nil) -> PluginEndpoint {
        let plugin = identity?.name
        let vouched = identity?.isVouched ?? false
        let bases = identity.map { apiBases.applying(toFile: $0.path, name: $0.name, vouched: vouched) } ?? apiBases
        let base = bases.base(for: plugin, declared: declared)
        let prefix = parsedPrefix(of: base.url)
        var granted = prefix.map { [$0] } ?? []
        var withheld: URLPolicy.WithheldBase?
        // A vouched plugin needs no grant; a file that changed since it was granted has none.
        var grantState: NetworkGrant.State?
        var networkGrant: URLPrefix?
        if let claim, identity != nil, !vouched {
            if claim.digest == claim.grant.sha256, let grantPrefix = parsedPrefix(of: claim.grant.url) {
                networkGrant = grantPrefix
                grantState = .granted(url: claim.grant.url)
            } else {
                grantState = .changed(url: claim.grant.url)
            }
        }
        if base.origin == .declared, !vouched, let prefix, prefix != parsedPrefix(of: apiBases.fallback), !(networkGrant?.admits(prefix.url) ?? false) {
            granted = []
            withheld = URLPolicy.WithheldBase(
                plugin: plugin ?? "the plugin", base: prefix, baseOption: baseOption, trustCommand: baseOption.map { _ in names.trust }, selector: identity?.selector)
            if identity != nil { withheld?.allowCommand = baseOption.map { _ in names.allow } }
        }
        if let networkGrant, !granted.contains(networkGrant) { granted.append(networkGrant) }
        return PluginEndpoint(base: base, policy: URLPolicy(allowing: granted + grants, grantOption: grantOption, withheld: withheld), grant: grantState)
    }

    /// Each base URL parsed, by its text: a listing asks for every plugin's
    /// endpoint, and most plugins share one base; parsing it again for each
    /// of a thousand plugins took a quarter of a warm `fetch`.
    private let prefixes = Mutex<[String: URLPrefix?]>([:])

    private func parsedPrefix(of url: String) -> URLPrefix? {
        if let known = prefixes.withLock({ $0[url] }) { return known }
        let parsed = try? URLPrefix(url)
        prefixes.withLock { $0[url] = .some(parsed) }
        return parsed
    }

    /// Performs an `http_get` of a plugin that declares no base, with the
    /// policy ``endpoint(for:declared:grant:)`` gives a plugin nobody vouched for.
    func get(_ text: String, timeout: Duration, for plugin: String) async -> HTTPOutcome {
        await get(text, timeout: timeout, policy: endpoint(for: nil, declared: nil).policy, for: plugin)
    }

    /// Performs a plugin's `http_get`: checks the URL against the plugin's
    /// policy, fetches it, and follows each redirect the policy also allows,
    /// up to ``maximumRedirects``.
    ///
    /// A refusal is logged as a warning naming the plugin and the URL, and
    /// answered as a failure whose text the plugin can show.
    /// - Parameters:
    ///   - text: The URL as the plugin wrote it.
    ///   - timeout: The deadline for the whole request, redirects included.
    ///   - urlPolicy: What this plugin may fetch, from its ``PluginEndpoint``.
    ///   - plugin: The plugin's name, for the warning.
    /// - Returns: What the plugin's completion gets.
    func get(_ text: String, timeout: Duration, policy urlPolicy: URLPolicy, for plugin: String) async -> HTTPOutcome {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        guard text.utf8.count <= URLPolicy.maximumLength else {
            return refuse(URLPolicyViolation(url: text, .tooLong(bytes: text.utf8.count)), for: plugin)
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
                return refuse(URLPolicyViolation(url: text, .networking(reason)), for: plugin)
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

    private func refuse(_ refusal: URLPolicyViolation, for plugin: String) -> HTTPOutcome {
        logger.warning("plugin \(plugin): \(refusal)")
        return .failure(refusal.description)
    }

    /// The process-lifetime C string for `key`, or nil.
    func configValue(_ key: String) -> UnsafePointer<CChar>? {
        configuration[key]?.pointer
    }
}
