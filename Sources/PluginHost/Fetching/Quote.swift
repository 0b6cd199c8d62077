/// A price as a plugin reported it.
public struct Quote: Sendable, Hashable {
    /// The symbol that was asked for, e.g. "ETH".
    public let symbol: String
    /// The base asset the plugin reported, e.g. "ETH".
    public let base: String
    /// The quote currency, e.g. "USD".
    public let currency: String
    /// The decimal amount exactly as the plugin passed it; never parsed
    /// through a binary floating-point type.
    public let amount: String
    /// The plugin that answered.
    public let plugin: PluginIdentity
}
