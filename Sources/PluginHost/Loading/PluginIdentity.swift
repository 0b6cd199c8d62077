/// Which plugin file something came from.
public struct PluginIdentity: Sendable, Hashable, Codable {
    /// The name from the plugin's descriptor, e.g. "EthereumPlugin".
    public let name: String
    /// The plugin's own version string, e.g. "1.0.0".
    public let version: String
    /// The file it was loaded from, as found in the plugins directory.
    public let path: String

    /// Creates an identity.
    public init(name: String, version: String, path: String) {
        self.name = name
        self.version = version
        self.path = path
    }
}
