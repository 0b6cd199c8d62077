extension Host {
    /// Inspects one plugin file without fetching anything, as `host inspect` does.
    ///
    /// The checks run here, on the file alone; the plugin's code runs only in
    /// an isolated worker (sandboxed, where the kernel allows), never in this
    /// process, so inspecting a hostile file is as safe as `--isolate`. The
    /// worker loads the plugin as ``loadPlugins(_:)`` would in a worker, with no
    /// other plugin claiming its symbols, and is stopped before this returns.
    /// - Parameters:
    ///   - path: The plugin file.
    ///   - isolation: How the worker is started; its load timeout applies.
    ///   - policy: Where this host's options put plugins, for the inspection
    ///     to report the file's mode.
    ///   - ranks: The user's `HOST_RANKS`, for the inspection to report the
    ///     rank each fetcher would get.
    /// - Returns: The verdicts and what the plugin registered.
    package func inspect(_ path: String, isolation: IsolationOptions, policy: IsolationPolicy, ranks: RankOverrides = RankOverrides()) async -> PluginInspection {
        let run = PluginLoad(services: services, trust: trust, policy: policy, isolation: isolation)
        let placement = run.rule.placement(of: path, origin: PluginDiscovery.origin(ofFile: path), lock: run.locks.lock(for: path))
        run.noteLockFilesThatOnlyPin()
        let voucher = placement.voucher
        let (checks, lock) = FileInspection(rules: trust.rules, locks: run.locks, names: services.names).run(path)
        let (result, workers) = await run.isolatedLoader(vouchers: { _ in voucher }).load([path])
        for worker in workers {
            await worker.shutdown()
        }
        var report = result.reports.first ?? PluginReport(
            name: FilePaths.name(of: path), version: nil, path: path, status: .failed, fetchers: [], error: "it was not loaded", warnings: [])
        if report.apiBase == nil { report.allowedURLs = services.allowedURLs }
        var inspection = PluginInspection(
            path: path, report: report,
            fetchers: result.fetchers.map { fetcher in
                let plugin = PluginIdentity(name: fetcher.plugin.name, version: fetcher.plugin.version, path: path, voucher: voucher)
                let (rank, origin) = SymbolProviders.believedRank(declared: fetcher.rank, wanted: ranks.rank(for: plugin), voucher: voucher)
                return PluginInspection.Fetcher(symbol: fetcher.symbol, displayName: fetcher.displayName, declaredRank: fetcher.rank, rank: rank, rankOrigin: origin)
            },
            checks: checks, lock: lock, placement: placement)
        inspection.memoryBudget = isolation.slots.keepingDescription
        isolation.slots.finish()
        return inspection
    }
}
