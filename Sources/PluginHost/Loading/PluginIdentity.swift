/// Which plugin file something came from.
package struct PluginIdentity: Sendable, Hashable, Codable {
    /// The name from the plugin's descriptor, e.g. "EthereumPlugin".
    package let name: String
    /// The plugin's own version string, e.g. "1.0.0".
    package let version: String
    /// The file it was loaded from, as found in the plugins directory.
    package let path: String

    /// Creates an identity.
    package init(name: String, version: String, path: String) {
        self.name = name
        self.version = version
        self.path = path
    }
}
