import FoundationEssentials
import Logging
import PluginBoundary
import PluginABI

/// The rest of a load that needs a task; see ``PreparedLoad``.
package struct PendingLoad: Sendable {
    private let rest: @Sendable () async -> LoadedPlugins

    init(_ rest: @escaping @Sendable () async -> LoadedPlugins) {
        self.rest = rest
    }

    /// Does the rest and returns the plugins; call ``LoadedPlugins/shutdown()`` when done.
    package func load() async -> LoadedPlugins {
        await rest()
    }
}
