/// How a run learns what the plugins provide, and where each one runs.
package struct LoadOptions: Sendable {
    /// Who decides where each plugin runs.
    package var policy: IsolationPolicy
    /// How workers run: the scanners, and plugins the policy isolates.
    package var isolation: IsolationOptions
    /// Whether the scan cache is read and written.
    package var cache: ScanCacheUse
    /// The user's ranks (`HOST_RANKS`), over what plugins declare.
    package var ranks: RankOverrides
    /// Told how a scan of plugin files progresses, if one is needed.
    package var progress: ScanProgress.Handler?
    /// The symbols the run is about to fetch, as the user typed them. With
    /// the scan cache, a listing starts the worker of each one's plugin
    /// (when it runs isolated) as soon as it knows which file that is, so
    /// the worker's start overlaps the rest of the listing.
    package var fetching: [String] = []
    /// How long this run may spend scanning new plugin files nobody vouched
    /// for; nil for the load timeout. A fetch passes its `--timeout`: when
    /// the listing already knows every symbol it fetches, those scans run
    /// beside the fetch and stop at this time, for the next run to go on.
    package var strangerScanTime: Duration?

    /// Creates the options.
    package init(
        policy: IsolationPolicy = .byTrust, isolation: IsolationOptions = IsolationOptions(), cache: ScanCacheUse, ranks: RankOverrides = RankOverrides()
    ) {
        self.policy = policy
        self.isolation = isolation
        self.cache = cache
        self.ranks = ranks
    }
}
