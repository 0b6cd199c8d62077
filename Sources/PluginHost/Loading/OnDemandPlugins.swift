import Synchronization

/// The plugins a listing described, each made into an ``OnDemandPlugin`` only
/// when one of its fetchers is first called: a listing of a thousand plugins
/// makes none, and a fetch only those it calls.
final class OnDemandPlugins: Sendable {
    /// What the listing knows of one plugin file.
    struct Plugin: Sendable {
        /// The plugin file, as found.
        let path: String
        /// The descriptor's name and version as its scan saw them.
        let identity: PluginIdentity
        /// Where its code runs, and why.
        let placement: Placement
        /// The file's identity when it was scanned: a file that changed since is refused.
        let fileIdentity: FileIdentity
    }

    private let plugins: [Plugin]
    /// The run's load, which loads each where its placement says.
    private let run: PluginLoad
    /// Workers the listing started for a fetch, by plugin path (``WorkerPrestart``).
    let prestarts: [String: WorkerPrestart]
    private let made = Mutex<[Int: OnDemandPlugin]>([:])

    /// The plugins of a listing, in its order.
    init(_ plugins: [Plugin], run: PluginLoad, prestarts: [String: WorkerPrestart] = [:]) {
        self.plugins = plugins
        self.run = run
        self.prestarts = prestarts
    }

    /// The plugin at `index` of the listing, made on the first call.
    func plugin(at index: Int) -> OnDemandPlugin {
        made.withLock { made in
            if let plugin = made[index] { return plugin }
            let listed = plugins[index]
            let plugin = OnDemandPlugin(
                path: listed.path, identity: listed.identity, placement: listed.placement, fileIdentity: listed.fileIdentity, run: run,
                prestart: prestarts[listed.path])
            made[index] = plugin
            return plugin
        }
    }

    /// The plugins a fetch loaded in workers of this run, for shutdown.
    var loadedInWorkers: [OnDemandPlugin] {
        made.withLock { Array($0.values) }.filter(\.hasWorker)
    }
}
