import Glibc

/// Scans plugin files for the scan cache: each in a sandboxed worker of
/// its own, several at once, so a plugin that crashes or hangs while it
/// registers costs its own entry and nothing else.
///
/// A scan is a load with no symbol taken: the worker loads the plugin,
/// reports what it registered, and is stopped. Which plugin keeps a symbol
/// two of them register is decided later, from the entries in search order,
/// exactly as loading in that order would decide it.
struct PluginScanner: Sendable {
    /// The run's load, whose workers' settings each scan's worker takes.
    let run: PluginLoad
    /// How many workers run at once.
    let parallelism: Int
    /// Told as each scan starts, and when the last ends.
    var progress: ScanProgress.Handler?

    /// What scanning one file found.
    enum Outcome: Sendable {
        /// The plugin ran in its worker: what it registered, or how it failed.
        /// This is what the cache remembers until the file changes.
        case scanned(ScanCache.Entry)
        /// The host refused the file before any of its code ran (trust rules,
        /// lock file, ELF headers, a sandbox short of the one required, or a
        /// worker that could not be started).
        /// These depend on more than the file, so they are checked again on
        /// every run rather than remembered.
        case refused(PluginLoadError)
    }

    /// Creates a scanner running at most `parallelism` workers at once; by
    /// default one per online core.
    init(run: PluginLoad, parallelism: Int? = nil) {
        self.run = run
        self.parallelism = max(1, parallelism ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Scans `candidates`, returning one outcome per candidate, in order:
    /// nil for a file `limit` left for the next run.
    ///
    /// A worker's slot is free as soon as it has answered: stopping it, which
    /// waits for it to exit, overlaps the next scan.
    /// - Parameters:
    ///   - locks: The run's lock files, read once for the whole run.
    ///   - limit: When to stop starting scans, and when to stop those running.
    ///   - finished: Told each outcome, with its candidate's index, as soon as
    ///     it is known, so that it is kept even if the run is stopped.
    func scan(
        _ candidates: [PluginDiscovery.Candidate], locks: LockFileCache, limit: ScanLimit = .none,
        finished: @escaping @Sendable (Int, Outcome) -> Void = { _, _ in }
    ) async -> [Outcome?] {
        // Quiet: the plugin's lines print when it is loaded to be used, and a failure in its own line.
        let loader = run.isolatedLoader(vouchers: { _ in .nobody }, takesSlots: true, quiet: true)
        var outcomes = [Outcome?](repeating: nil, count: candidates.count)
        enum Step: Sendable {
            case scanned(Int, Outcome?, WorkerConnection?)
            case stopped
        }
        await withTaskGroup(of: Step.self) { group in
            var next = 0
            var done = 0
            func startNext() {
                guard next < candidates.count, limit.allowsStart() else { return }
                let index = next
                next += 1
                progress?(ScanProgress(done: done, total: candidates.count, path: candidates[index].path))
                group.addTask {
                    let (outcome, worker) = await scan(candidates[index], loader: loader, locks: locks, cutAt: limit.cutAt)
                    return .scanned(index, outcome, worker)
                }
            }
            for _ in 0..<parallelism { startNext() }
            for await step in group {
                guard case .scanned(let index, let outcome, let worker) = step else { continue }
                outcomes[index] = outcome
                if let outcome { finished(index, outcome) }
                done += 1
                if done == candidates.count { progress?(ScanProgress(done: done, total: done, path: candidates[index].path)) }
                if let worker {
                    group.addTask {
                        await worker.shutdown()
                        return .stopped
                    }
                }
                startNext()
            }
        }
        // The limit left some unscanned: the progress line still ends.
        if let last = candidates.last, outcomes.contains(where: { $0 == nil }) {
            progress?(ScanProgress(done: candidates.count, total: candidates.count, path: last.path))
        }
        return outcomes
    }

    /// Scans one file; the worker, when its plugin loaded, is the caller's to
    /// stop. Nil when `cutAt` stopped the scan before the plugin's own load
    /// timeout: the file is left for the next run, not recorded as hung.
    private func scan(
        _ candidate: PluginDiscovery.Candidate, loader configured: IsolatedPluginLoader, locks: LockFileCache, cutAt: ContinuousClock.Instant?
    ) async -> (Outcome?, WorkerConnection?) {
        var loader = configured
        var cut = false
        if let cutAt {
            let left = cutAt - .now
            guard left > .zero else { return (nil, nil) }
            if left < loader.options.loadTimeout {
                loader.options.loadTimeout = left
                cut = true
            }
        }
        let path = candidate.path
        let file: PluginFile
        switch loader.open(path, locks: locks, expecting: nil) {
        case .failure(let failure): return (.refused(failure), nil)
        case .success(let opened): file = opened
        }
        // What was checked is what is described: the identity of the open file.
        guard let identity = file.identity() else {
            file.closeUnloaded()
            return (.refused(PluginLoadError(.changedSinceListed)), nil)
        }
        let digest = file.digest
        let (outcome, sandbox, worker) = await loader.finish(path, started: await loader.spawn(path, file: file))
        var entry = ScanCache.Entry(
            path: path, identity: identity, sha256: digest, name: FilePaths.name(of: path), version: nil, abiVersion: nil,
            fetchers: [], status: .failed, error: nil)
        entry.sandbox = sandbox
        switch outcome {
        case .success(let (report, fetchers)):
            entry.name = report.name
            entry.version = report.version
            entry.abiVersion = report.metadata?.abiVersion
            entry.metadata = report.metadata
            entry.status = .loaded
            entry.fetchers = fetchers.map { ScanCache.Fetcher(symbol: $0.symbol, displayName: $0.displayName, rank: $0.rank.value) }
            entry.warnings = report.warnings
        case .failure(let failure):
            if cut, case .isolated(let cause) = failure.kind, case .hung = cause.cause { return (nil, worker) }
            if case .sandboxRequired = failure.kind { return (.refused(failure), worker) }
            if case .isolated(let cause) = failure.kind, cause.neverStarted { return (.refused(failure), worker) }
            entry.name = failure.name ?? entry.name
            entry.version = failure.version
            entry.abiVersion = failure.metadata?.abiVersion
            entry.metadata = failure.metadata
            entry.error = failure.message(naming: run.services.names)
        }
        return (.scanned(entry), worker)
    }
}
