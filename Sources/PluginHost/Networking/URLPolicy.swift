import FoundationEssentials

/// Which URLs the host fetches for its plugins: those under the API base,
/// and under any prefix the user granted. Nothing else.
///
/// `http_get` is a capability, not a proxy: a plugin that asks for
/// `file:///etc/passwd`, or for another port on 127.0.0.1, is refused
/// before any I/O, and so is every redirect that leads outside. See
/// ``URLPrefix`` for what "under" means.
///
/// A URL is refused outright, whatever the grants, when a second reader
/// could take it another way: a user name, a backslash, a fragment, a `.`
/// or `..` segment (`%2e%2e` too), an encoded `/`. An http or https URL may
/// have a query, which is sent as written and plays no part in the check;
/// a `file` URL may not.
///
/// ```swift
/// let policy = URLPolicy(allowing: [try URLPrefix("https://api.coinbase.com")])
/// ```
package struct URLPolicy: Sendable, Equatable {
    /// The prefixes allowed, the API base first.
    package let prefixes: [URLPrefix]
    /// How a user grants a prefix, named in refusals, e.g. `--allow-url`;
    /// nil for a neutral "grant the host …".
    package let grantOption: String?
    /// A base the plugin declared and nobody granted, so that a refusal
    /// under it can say how to grant it.
    package let withheld: WithheldBase?

    /// A plugin's declared API base that the host does not fetch under,
    /// because nobody vouched for the plugin.
    package struct WithheldBase: Sendable, Equatable {
        /// The plugin's name.
        package let plugin: String
        /// The base it declared.
        package let base: URLPrefix
        /// The option that sets a plugin's base, e.g. `--api-base-url`; nil for a neutral wording.
        package let baseOption: String?
        /// The command that vouches for a plugin, e.g. `host trust` in backticks; nil to name none.
        package let trustCommand: String?
        /// The command that grants the base to the plugin's file, still
        /// sandboxed, e.g. "`host allow`"; nil for none. Named without the
        /// file: the refusal reaches the plugin as its error, which is cut at 512 bytes.
        package var allowCommand: String?
        /// How the user names the plugin in `--api-base-url PLUGIN=URL`: its
        /// file, since nobody vouched for it and a name selects only vouched plugins.
        package let selector: String

        /// Creates the record of a withheld base.
        package init(plugin: String, base: URLPrefix, baseOption: String?, trustCommand: String? = nil, selector: String? = nil) {
            self.plugin = plugin
            self.base = base
            self.baseOption = baseOption
            self.trustCommand = trustCommand
            self.selector = selector ?? plugin
        }
    }

    /// The longest URL a plugin may ask for, in bytes: far more than any API
    /// needs, and short enough that parsing it, and saying why it was
    /// refused, costs nothing.
    static let maximumLength = 8192

    /// Creates a policy.
    /// - Parameters:
    ///   - prefixes: The URLs under which plugins may fetch; none allows nothing.
    ///   - grantOption: The option that grants a prefix, for refusals to name.
    ///   - withheld: A base the plugin declared and may not fetch under, for refusals to name.
    package init(allowing prefixes: [URLPrefix], grantOption: String? = nil, withheld: WithheldBase? = nil) {
        var unique: [URLPrefix] = []
        for prefix in prefixes where !unique.contains(prefix) { unique.append(prefix) }
        self.prefixes = unique
        self.grantOption = grantOption
        self.withheld = withheld
    }

    /// The policy that admits only what is under `apiBaseURL`, if that can
    /// be a prefix at all.
    /// - Parameter apiBaseURL: The API plugins read as `api_base_url`.
    package static func apiBase(_ apiBaseURL: String) -> URLPolicy {
        URLPolicy(allowing: (try? URLPrefix(apiBaseURL)).map { [$0] } ?? [])
    }

    /// The prefixes as text, in order: what `list-plugins` shows.
    package var allowedURLs: [String] { prefixes.map(\.description) }

    /// The directories (or files) of the `file` prefixes: the only places
    /// file reads may resolve beneath.
    package var fileRoots: [String] { prefixes.compactMap(\.filePath) }

    /// Checks a URL a plugin asked for.
    /// - Parameter text: The URL as the plugin wrote it.
    /// - Returns: The URL to fetch, rebuilt from what was checked.
    /// - Throws: ``URLPolicyViolation`` when it is malformed or under no prefix.
    func check(_ text: String) throws(URLPolicyViolation) -> StrictURL {
        let url: StrictURL
        do {
            url = try StrictURL(text)
        } catch {
            throw URLPolicyViolation(url: text, .malformed(error))
        }
        guard prefixes.contains(where: { $0.admits(url) }) else {
            if let withheld, withheld.base.admits(url) {
                throw URLPolicyViolation(url: text, .unvouched(withheld))
            }
            throw URLPolicyViolation(url: text, .outside(url, allowed: allowedURLs, grantOption: grantOption))
        }
        return url
    }

    /// Checks where a redirect from `current` leads.
    /// - Parameters:
    ///   - location: The `Location` header, possibly relative.
    ///   - current: The URL that answered with it.
    ///   - asked: The URL the plugin asked for, which the refusal names.
    /// - Returns: The next URL to fetch.
    /// - Throws: ``URLPolicyViolation`` naming the plugin's URL and where it led.
    func checkRedirect(to location: String, from current: StrictURL, asked: String) throws(URLPolicyViolation) -> StrictURL {
        // NB: Foundation resolves a relative location (and removes its dot
        // segments, as RFC 3986 says); the result is then read strictly like any URL.
        let resolved = URL(string: location, relativeTo: URL(string: current.text))?.absoluteString ?? location
        do {
            return try check(resolved)
        } catch {
            throw URLPolicyViolation(url: asked, .redirect(to: resolved, error))
        }
    }
}
