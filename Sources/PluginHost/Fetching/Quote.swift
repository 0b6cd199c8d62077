/// A price as a plugin reported it.
package struct Quote: Sendable, Hashable {
    /// The symbol that was asked for, e.g. "ETH".
    package let symbol: String
    /// The base asset the plugin reported, e.g. "ETH".
    package let base: String
    /// The quote currency, e.g. "USD".
    package let currency: String
    /// The decimal amount exactly as the plugin passed it; never parsed
    /// through a binary floating-point type.
    package let amount: String
    /// The plugin that answered.
    package let plugin: PluginIdentity
}
