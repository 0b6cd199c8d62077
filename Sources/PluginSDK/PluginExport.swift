internal import PluginABI

/// Turns a list of Swift fetchers into a plugin the `host` can load.
///
/// A plugin's entry point returns ``descriptor(name:version:description:author:license:homepage:defaultAPIBaseURL:rank:fetchers:)``,
/// and the SDK does the rest: it fills in the C descriptor the host checks,
/// and when the host calls `register_plugin`, it validates the host's
/// services table, calls `fetchers` with the ``PluginServices`` built from
/// it, and registers every fetcher it returns.
///
/// ```swift
/// import PluginSDK
///
/// @c(patchbay_plugin_entry)
/// public func patchbayPluginEntry() -> UnsafeRawPointer {
///     PluginExport.descriptor(name: "EthereumPlugin", version: "1.0.0") { services in
///         [CoinbaseSpotFetcher(base: "ETH", displayName: "Ethereum",
///                              networking: services.networking, apiBaseURL: services.apiBaseURL)]
///     }
/// }
/// ```
public enum PluginExport {
    /// Builds the fetchers of a plugin from the services the host offers.
    ///
    /// Called once, during the host's `register_plugin` call. Throw to
    /// refuse to load: the error is logged on one line and the host is told
    /// the plugin failed.
    public typealias FetcherFactory = @Sendable (PluginServices) throws -> [any PriceFetcher]

    /// The plugin's `pb_plugin_descriptor`, for the exported entry point to
    /// return.
    ///
    /// The first call allocates the descriptor and copies `name` and
    /// `version` into memory that lives as long as the process; every later
    /// call returns the same pointer and ignores its arguments, so the entry
    /// point stays cheap and may be called any number of times.
    ///
    /// The optional text fields, which `host inspect` and `host list-plugins`
    /// show, are limited to 512 bytes for `description` and 128 for the
    /// others; the host refuses a plugin whose text is longer.
    ///
    /// - Parameters:
    ///   - name: The plugin's name, e.g. `"EthereumPlugin"`; the host shows it
    ///     in its logs and in `host list-fetchers`.
    ///   - version: The plugin's own version, e.g. `"1.0.0"`.
    ///   - description: One sentence on what the plugin fetches.
    ///   - author: Who wrote it, e.g. `"Jane Doe <jane@example.com>"`.
    ///   - license: Its licence, as an SPDX identifier such as `"MIT"`.
    ///   - homepage: Where to read about it.
    ///   - defaultAPIBaseURL: The API the plugin talks to unless the user
    ///     says otherwise, e.g. `"https://www.bitstamp.net"`, without a
    ///     trailing slash; nil for the host's default,
    ///     `https://api.coinbase.com`. Whatever the user chooses arrives as
    ///     ``PluginServices/apiBaseURL``. The host fetches under a declared
    ///     base only for a plugin the user vouched for.
    ///   - rank: How strongly every fetcher of the plugin asks to be the one
    ///     asked first for its symbol; see ``FetcherRank``.
    ///   - fetchers: Builds the fetchers to register; see ``FetcherFactory``.
    /// - Returns: A `const pb_plugin_descriptor *` with process lifetime.
    public static func descriptor(
        name: String,
        version: String,
        description: String? = nil,
        author: String? = nil,
        license: String? = nil,
        homepage: String? = nil,
        defaultAPIBaseURL: String? = nil,
        rank: FetcherRank = .secondary,
        fetchers: @escaping FetcherFactory
    ) -> UnsafeRawPointer {
        let metadata = Metadata(description: description, author: author, license: license, homepage: homepage, apiBaseURL: defaultAPIBaseURL)
        return PluginRegistration.descriptor(name: name, version: version, metadata: metadata, rank: rank, makeFetchers: fetchers)
    }

    /// The descriptor's optional fields.
    struct Metadata {
        let description: String?
        let author: String?
        let license: String?
        let homepage: String?
        let apiBaseURL: String?
    }
}
