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
/// plugin may fetch is ``HostServices``'s decision: under its base and the
/// user's grants, and under a base it declared only when someone vouched
/// for it. Plain text, with no URL parsing, so a worker can apply the same
/// rule to the descriptor it reads.
///
/// ```swift
/// let bases = APIBases(byPlugin: ["BitstampPlugin": "file:///srv/bitstamp"])
/// bases.base(for: "BitstampPlugin", declared: "https://www.bitstamp.net").url   // file:///srv/bitstamp
/// bases.base(for: "EthereumPlugin", declared: nil).url                           // https://api.coinbase.com
/// ```
package struct APIBases: Sendable, Equatable, Codable {
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

/// One plugin's API base and what it may fetch, as ``HostServices`` decided.
package struct PluginEndpoint: Sendable, Equatable {
    /// The base it is told about.
    package let base: APIBase
    /// What its `http_get` is checked against.
    package let policy: URLPolicy
}

extension APIBases {
    /// Reads the user's bases: each entry is `URL`, for every plugin, or
    /// `PLUGIN=URL`, for the plugin of that descriptor name. An entry is
    /// `PLUGIN=URL` when the text before its first `=` has no `:` or `/`,
    /// which a URL's scheme always has.
    /// - Parameters:
    ///   - entries: The entries, in the order given.
    ///   - fallback: The base of a plugin nothing else gives one.
    /// - Throws: ``APIBaseError`` for the first entry that is not a base the
    ///   host could fetch under, or that repeats a plugin or the base for all.
    package init(parsing entries: [String], fallback: String = APIBases.coinbase) throws(APIBaseError) {
        self.init(fallback: fallback)
        for entry in entries {
            var plugin: String?
            var url = entry
            if let equals = entry.firstIndex(of: "="), !entry[..<equals].contains(where: { $0 == ":" || $0 == "/" }) {
                plugin = String(entry[..<equals])
                url = String(entry[entry.index(after: equals)...])
                guard plugin?.isEmpty == false else { throw APIBaseError(entry: entry, .noPluginName) }
            }
            try Self.check(url, entry: entry)
            if let plugin {
                if let earlier = byPlugin[plugin] { throw APIBaseError(entry: entry, .repeated(plugin: plugin, earlier: earlier)) }
                byPlugin[plugin] = url
            } else {
                if let earlier = everyPlugin { throw APIBaseError(entry: entry, .repeated(plugin: nil, earlier: earlier)) }
                everyPlugin = url
            }
        }
    }

    /// Refuses a URL the host could not fetch under as a base.
    private static func check(_ url: String, entry: String) throws(APIBaseError) {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        let rest = url.dropFirst(scheme.count)
        guard ["http", "https", "file"].contains(scheme), rest.hasPrefix("://"),
            scheme == "file" || !rest.dropFirst(3).prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).isEmpty
        else {
            throw APIBaseError(entry: entry, .notAURL(url))
        }
        do {
            _ = try URLPrefix(url)
        } catch {
            throw APIBaseError(entry: entry, .notAPrefix(error))
        }
    }
}

/// Why a base the user gave cannot be one.
package struct APIBaseError: Error, Sendable, Equatable {
    /// The entry as given, e.g. `BitstampPlugin=ftp://x`.
    package let entry: String
    /// What is wrong with it.
    package let problem: Problem

    /// What is wrong with an entry.
    package enum Problem: Sendable, Equatable {
        /// Not an http, https or file URL with a host (file needs none).
        case notAURL(String)
        /// A URL the host would never fetch under as it is: a user name, a query…
        case notAPrefix(URLPrefixError)
        /// `=URL`, with nothing before the `=`.
        case noPluginName
        /// A second base for one plugin, or for every plugin (`plugin` nil).
        case repeated(plugin: String?, earlier: String)
    }

    init(entry: String, _ problem: Problem) {
        self.entry = entry
        self.problem = problem
    }

    /// One line that names the setting as the user gave it, and the fix.
    /// - Parameter source: What set it, e.g. `--api-base-url` or `HOST_API_BASE_URL`.
    package func message(naming source: String) -> String {
        switch problem {
        case .notAURL(let url):
            "\(source) '\(url)' is not an http, https or file URL; use e.g. https://api.coinbase.com or file://$PWD/Fixtures/coinbase"
        case .notAPrefix(let error):
            "\(source) \(error); plugins may fetch only under it, so give a plain base such as https://api.coinbase.com"
        case .noPluginName:
            "\(source) '\(entry)' names no plugin before '='; give PLUGIN=URL, e.g. BitstampPlugin=https://www.bitstamp.net, or a URL for every plugin"
        case .repeated(let plugin?, let earlier):
            "\(source) gives \(plugin) two bases, '\(earlier)' and '\(entry.dropFirst(plugin.count + 1))'; give it one"
        case .repeated(nil, let earlier):
            "\(source) gives every plugin two bases, '\(earlier)' and '\(entry)'; give one, and PLUGIN=URL for a plugin of its own"
        }
    }
}
