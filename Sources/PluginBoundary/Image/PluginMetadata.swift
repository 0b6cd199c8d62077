import PluginABI

/// What a plugin's descriptor says beyond its name and version: the ABI and
/// size it was built with, and the optional text a plugin author may add.
///
/// The text fields are nil when the plugin left them NULL, and also when it
/// was built against the first revision of `patchbay_plugin.h`, whose
/// descriptor ends before them: the host never reads past `struct_size`.
package struct PluginMetadata: Sendable, Equatable, Codable {
    /// The descriptor's `abi_version`.
    package let abiVersion: UInt32
    /// The descriptor's `struct_size`: which revision of the header the
    /// plugin was built against.
    package let descriptorSize: UInt32
    /// One sentence on what the plugin fetches.
    package let description: String?
    /// Who wrote it.
    package let author: String?
    /// Its licence, e.g. an SPDX identifier.
    package let license: String?
    /// Where to read about it.
    package let homepage: String?
    /// The API the plugin talks to unless the user says otherwise, as it
    /// declares it; nil for the host's default.
    package let apiBaseURL: String?

    /// Creates metadata from values already checked by ``PluginOutputRules``.
    package init(
        abiVersion: UInt32, descriptorSize: UInt32, description: String?, author: String?, license: String?, homepage: String?,
        apiBaseURL: String? = nil
    ) {
        self.abiVersion = abiVersion
        self.descriptorSize = descriptorSize
        self.description = description
        self.author = author
        self.license = license
        self.homepage = homepage
        self.apiBaseURL = apiBaseURL
    }

    /// The first revision's descriptor size, which every host accepts.
    package static let minimumDescriptorSize = Int(PluginBoundary.minimumDescriptorSize)
    /// The size of the descriptor this host was built with.
    package static let currentDescriptorSize = MemoryLayout<pb_plugin_descriptor>.size
}
