/// One row of the registry: a symbol, and a plugin that provides it.
///
/// What listings print. It is only data: nothing is loaded, and nothing is
/// registered in a container, to make it.
package struct FetcherListing: Sendable, Equatable {
    /// The ticker, e.g. "ETH".
    package let symbol: String
    /// A human-readable name, e.g. "Ethereum".
    package let displayName: String
    /// The plugin that provides it.
    package let plugin: PluginIdentity
    /// The rank the plugin declares for it, before the host's cap and the
    /// user's overrides, which ``SymbolProviders`` apply.
    package let rank: SourceRank
}
