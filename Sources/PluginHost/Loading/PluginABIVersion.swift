import FoundationEssentials
import Logging
import PluginBoundary
import PluginABI

/// The ABI revision this host speaks, from `patchbay_plugin.h`.
package enum PluginABIVersion {
    /// `PB_PLUGIN_ABI_VERSION`.
    package static let current: UInt32 = PB_PLUGIN_ABI_VERSION
}
