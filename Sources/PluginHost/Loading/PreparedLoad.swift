import FoundationEssentials
import Logging
import PluginBoundary
import PluginABI

/// What ``Host/loadPluginsWithoutWaiting(_:)`` got done.
package enum PreparedLoad: Sendable {
    /// Everything: the plugins are listed or loaded.
    case loaded(LoadedPlugins)
    /// The part that needs a task, such as scans in workers.
    case needsTask(PendingLoad)
}
