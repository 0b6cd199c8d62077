/// Which plugin something came from: its file, and who vouched for it.
///
/// The name a plugin declares is only a label: anyone can write any name
/// into a descriptor, so nothing the user says by name reaches a plugin
/// nobody vouched for (see ``PluginSelector``), and such a plugin is shown
/// with its file (``label``), so that two files never look alike.
package struct PluginIdentity: Sendable, Hashable, Codable {
    /// The name from the plugin's descriptor, e.g. "EthereumPlugin".
    package let name: String
    /// The plugin's own version string, e.g. "1.0.0".
    package let version: String
    /// The file it was loaded from, as found in the plugins directory.
    package let path: String
    /// Who vouched for the file.
    package let voucher: Placement.Voucher

    /// Creates an identity.
    package init(name: String, version: String, path: String, voucher: Placement.Voucher) {
        self.name = name
        self.version = version
        self.path = path
        self.voucher = voucher
    }

    /// Whether someone vouched for the file.
    package var isVouched: Bool { voucher != .nobody }

    /// How outputs name it: the name alone for a vouched plugin,
    /// `NAME (unvouched, PATH)` for any other.
    package var label: String { Self.label(name: name, path: path, voucher: voucher) }

    /// How the user names it in a setting (``PluginSelector``): by name
    /// when vouched for, else by its file.
    package var selector: String { isVouched ? name : path }

    /// How outputs name a plugin of this name, file and voucher.
    package static func label(name: String, path: String, voucher: Placement.Voucher) -> String {
        voucher == .nobody ? "\(name) (unvouched, \(path))" : name
    }
}
