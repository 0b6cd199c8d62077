/// Which API each plugin is told to talk to: the one rule for every plugin,
/// in-process or in a worker.
///
/// A plugin's base is the first of:
/// 1. the user's base for it, by its descriptor's name (`--api-base-url PLUGIN=URL`);
/// 2. the user's base for every plugin (`--api-base-url URL`);
/// 3. the base its descriptor declares (`pb_plugin_descriptor.api_base_url`);
/// 4. ``coinbase``, the host's default.
///
/// This only says what `config_value("api_base_url")` returns. What a
/// plugin may fetch is the host's decision (`HostServices`): under its base
/// and the user's grants, and under a base it declared only when someone
/// vouched for it. Plain text, with no URL parsing, so a worker applies the
/// same rule to the descriptor it reads.
///
/// ```swift
/// let bases = APIBases(byPlugin: ["BitstampPlugin": "file:///srv/bitstamp"])
/// bases.base(for: "BitstampPlugin", declared: "https://www.bitstamp.net").url   // file:///srv/bitstamp
/// bases.base(for: "EthereumPlugin", declared: nil).url                           // https://api.coinbase.com
/// ```
package struct APIBases: Sendable, Equatable {
    /// The user's base for each plugin, by its descriptor's name.
    package var byPlugin: [String: String]
    /// The user's base for every plugin, over what each declares.
    package var everyPlugin: String?
    /// The base of a plugin that declares none and that the user named in no way.
    package var fallback: String

    /// The host's default API, which the bundled Coinbase plugins and the examples speak.
    package static let coinbase = "https://api.coinbase.com"

    /// Creates the rule.
    /// - Parameters:
    ///   - byPlugin: The user's base for each plugin, by name.
    ///   - everyPlugin: The user's base for every plugin.
    ///   - fallback: The base of a plugin nothing else gives one.
    package init(byPlugin: [String: String] = [:], everyPlugin: String? = nil, fallback: String = APIBases.coinbase) {
        self.byPlugin = byPlugin
        self.everyPlugin = everyPlugin
        self.fallback = fallback
    }

    /// The base of one plugin.
    /// - Parameters:
    ///   - plugin: Its descriptor's name; nil while the host does not know it yet.
    ///   - declared: The base its descriptor declares, if any.
    /// - Returns: The base, without a trailing slash, and where it came from.
    package func base(for plugin: String?, declared: String?) -> APIBase {
        if let plugin, let url = byPlugin[plugin] { return APIBase(url, .named) }
        if let everyPlugin { return APIBase(everyPlugin, .everyPlugin) }
        if let declared, !declared.isEmpty { return APIBase(declared, .declared) }
        return APIBase(fallback, .fallback)
    }
}

/// One plugin's API base, and who chose it.
package struct APIBase: Sendable, Equatable, Codable {
    /// Who chose a base.
    package enum Origin: String, Sendable, Codable {
        /// The user, for this plugin by name.
        case named
        /// The user, for every plugin.
        case everyPlugin = "every-plugin"
        /// The plugin's own descriptor.
        case declared
        /// The host's default.
        case fallback = "default"
    }

    /// The base as `config_value("api_base_url")` returns it: no trailing slash.
    package let url: String
    /// Who chose it.
    package let origin: Origin

    /// A base from `origin`, trailing slashes dropped.
    package init(_ url: String, _ origin: Origin) {
        var url = url
        while url.hasSuffix("/") && !url.hasSuffix("://") { url.removeLast() }
        self.url = url
        self.origin = origin
    }
}
