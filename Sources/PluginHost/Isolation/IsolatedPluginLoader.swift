import FoundationEssentials
import HostShared
import Logging

/// Loads every plugin in a worker process of its own (`--isolate`).
///
/// The host opens and checks each file itself, exactly as in-process
/// (ownership, permissions, lock file, ELF headers), and hands the checked
/// descriptor to the worker, which loads it through `/proc/self/fd/5`.
/// Workers start all at once, so their start-up overlaps, but load one after
/// the other in file order, each told which symbols are taken, so the first
/// plugin to register a symbol wins exactly as in-process.
///
/// Each worker confines itself before it loads anything and reports its
/// sandbox first; the host sends `load` only after that report, and refuses
/// the plugin there when ``IsolationOptions/requireFullSandbox`` is set and
/// the sandbox is not full.
struct IsolatedPluginLoader: Sendable {
    let services: HostServices
    let trust: PluginTrust
    let options: IsolationOptions
    /// The symbols taken, by earlier plugins of this run or by this loader's.
    var claims = SymbolClaims()
    /// Set once a sandbox short of full has been warned about in this run.
    var warnedAboutSandbox = OnceFlag()

    /// Loads `files`; the result's fetchers call into the workers.
    func load(_ files: [String]) async -> (PluginLoader.Outcome, [WorkerConnection]) {
        let locks = LockFileCache(trust: trust)
        var started: [Result<WorkerConnection, PluginLoader.Failure>] = []
        for path in files {
            started.append(await start(path, locks: locks))
        }

        var result = PluginLoader.Outcome()
        var workers: [WorkerConnection] = []
        for (path, start) in zip(files, started) {
            let (outcome, sandbox, worker) = await finish(path, started: start)
            if let worker { workers.append(worker) }
            result.record(outcome, for: path, services: services)
            result.reports[result.reports.count - 1].sandbox = sandbox
        }
        return (result, workers)
    }

    /// Loads one file in a worker, checking first that it is still the file
    /// a listing described. Logs nothing: the caller reports the outcome.
    /// - Returns: The outcome, the worker's sandbox, and the worker when the
    ///   plugin loaded (the caller shuts it down).
    func loadOne(_ path: String, expecting identity: FileIdentity?) async -> (
        Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure>, SandboxReport, WorkerConnection?
    ) {
        await finish(path, started: await start(path, locks: LockFileCache(trust: trust), expecting: identity))
    }

    /// Has a started worker load its plugin; shuts the worker down unless the plugin loaded.
    func finish(_ path: String, started: Result<WorkerConnection, PluginLoader.Failure>) async -> (
        Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure>, SandboxReport, WorkerConnection?
    ) {
        switch started {
        case .failure(let failure):
            return (.failure(failure), .unconfined, nil)
        case .success(let worker):
            var (outcome, sandbox) = await loadConfined(path, in: worker)
            // What the plugin's code was refused while it registered.
            if case .success(let (loaded, fetchers)) = outcome, let refused = worker.refusedSystemCall {
                var report = loaded
                report.refusedSystemCall = refused
                outcome = .success((report, fetchers))
            }
            guard case .success = outcome else {
                await worker.shutdown()
                return (outcome, sandbox, nil)
            }
            return (outcome, sandbox, worker)
        }
    }

    /// Waits for the worker's sandbox, refuses the plugin if the sandbox is
    /// not what the options require, and otherwise has the worker load it.
    ///
    /// The load timeout applies to each wait: the report comes before any
    /// plugin code runs, so only the worker's own start can delay it.
    ///
    /// The first sandbox short of full is one warning line, not one per
    /// plugin: it is the machine's kernel, the same for every worker.
    private func loadConfined(
        _ path: String, in worker: WorkerConnection
    ) async -> (Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure>, SandboxReport) {
        let sandbox: SandboxReport
        switch await worker.sandbox(timeout: options.loadTimeout) {
        case .failure(let failure):
            return (.failure(PluginLoader.Failure(error: PluginLoadError(.isolated(failure)))), .unconfined)
        case .success(let report):
            // The worker says what it did to itself; the host knows what it started it in.
            sandbox = report.adding(worker.process.missing)
        }
        if let cost = sandbox.cost {
            services.logger.debug("\(path): worker sandbox \(sandbox.summary), confined in \(cost)")
        }
        if sandbox.level != .full {
            if options.requireFullSandbox {
                return (.failure(PluginLoader.Failure(error: PluginLoadError(.sandboxRequired(sandbox)))), sandbox)
            }
            if warnedAboutSandbox.set() {
                services.logger.warning("\(sandbox.machineWarning)")
            }
        }
        return (await load(path, in: worker), sandbox)
    }

    /// Checks the file here, and that it is still the one a listing
    /// described when `identity` is given, and starts its worker.
    func start(_ path: String, locks: LockFileCache, expecting identity: FileIdentity? = nil) async -> Result<WorkerConnection, PluginLoader.Failure> {
        switch open(path, locks: locks, expecting: identity) {
        case .failure(let failure): .failure(failure)
        case .success(let file): await spawn(path, file: file)
        }
    }

    /// Opens and checks the file, as in-process: trust rules, lock file, ELF
    /// headers; and when `identity` is given, that it is still that file.
    func open(_ path: String, locks: LockFileCache, expecting identity: FileIdentity?) -> Result<PluginFile, PluginLoader.Failure> {
        do throws(PluginLoadError) {
            return .success(try PluginFile.open(path, rules: trust.rules, lock: locks.lock(for: path), expecting: identity))
        } catch {
            return .failure(PluginLoader.Failure(error: error))
        }
    }

    /// Starts a worker for a checked file, handing it the descriptor.
    func spawn(_ path: String, file: PluginFile) async -> Result<WorkerConnection, PluginLoader.Failure> {
        // The worker has its own copy of the descriptor; the host never loads this one.
        defer { file.closeUnloaded() }
        do throws(WorkerFailure) {
            let process = try await WorkerProcess.spawn(
                executable: options.workerExecutable, arguments: options.workerArguments, plugin: file.descriptor, skipping: options.skippedLayers)
            return .success(WorkerConnection.connect(to: process, path: path, services: services))
        } catch {
            return .failure(PluginLoader.Failure(error: PluginLoadError(.isolated(error))))
        }
    }

    /// Has the worker load its plugin and turns its reply into fetchers.
    private func load(_ path: String, in worker: WorkerConnection) async -> Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure> {
        let request = LoadRequest(
            path: path,
            configuration: services.configurationValues,
            defaultTimeoutMilliseconds: Int64(services.defaultTimeout.timeoutMilliseconds),
            logLevel: services.logger.logLevel.rawValue,
            claims: claims.all
        )
        switch await worker.load(request, timeout: options.loadTimeout) {
        case .failure(let failure):
            return .failure(PluginLoader.Failure(error: PluginLoadError(.isolated(failure))))
        case .success(let reply):
            // The plugin runs in the worker and can write this reply itself:
            // it passes the rules an in-process registration passes.
            let checked: CheckedLoadReply
            do throws(PluginInput.Violation) {
                checked = try CheckedLoadReply(reply, claims: claims)
            } catch {
                let detail = "its load report was refused: \(error)"
                worker.protocolViolation(detail)
                return .failure(PluginLoader.Failure(error: PluginLoadError(.isolated(WorkerFailure(.loading, .protocolViolation(detail))))))
            }
            worker.identify(as: checked.name)
            guard let version = checked.version, checked.error == nil else {
                return .failure(
                    PluginLoader.Failure(
                        error: PluginLoadError(.reportedByWorker(checked.error ?? "failed")), name: checked.name, version: checked.version,
                        metadata: checked.metadata))
            }
            claims.claim(checked.fetchers.map(\.symbol), for: path)
            let identity = PluginIdentity(name: checked.name, version: version, path: path)
            let fetchers = checked.fetchers.map {
                PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, plugin: identity, worker: worker)
            }
            var report = PluginReport(
                name: checked.name, version: version, path: path, status: .loaded,
                fetchers: fetchers.map(\.symbol), error: nil, warnings: checked.warnings
            )
            report.metadata = checked.metadata
            return .success((report, fetchers))
        }
    }
}

/// A worker's load report, after the checks an in-process registration gets:
/// the same text rules, the same symbol rule, and "the first plugin keeps a
/// symbol" against what earlier plugins, in-process or isolated, claimed.
/// The path is always the host's own, never the worker's.
struct CheckedLoadReply {
    let name: String
    /// Nil when the plugin failed before its descriptor was read.
    let version: String?
    /// Set when the worker reports that loading failed.
    let error: String?
    let fetchers: [LoadReply.Fetcher]
    let warnings: [String]
    let metadata: PluginMetadata?

    init(_ reply: LoadReply, claims: SymbolClaims) throws(PluginInput.Violation) {
        let report = reply.report
        // A failed report may carry the file name (up to NAME_MAX) where the descriptor could not be read.
        name = try PluginInput.text(report.name, .name, limit: report.status == .loaded ? PluginInput.Limit.name : 255)
        metadata = try report.metadata.map { metadata throws(PluginInput.Violation) in try PluginInput.metadata(metadata) }
        warnings = try report.warnings.map { warning throws(PluginInput.Violation) in try PluginInput.text(warning, .error, limit: PluginInput.Limit.error) }
        guard report.status == .loaded else {
            version = try report.version.map { version throws(PluginInput.Violation) in try PluginInput.text(version, .version, limit: PluginInput.Limit.version) }
            error = try PluginInput.text(report.error ?? "failed", .error, limit: PluginInput.Limit.error)
            fetchers = []
            guard reply.fetchers.isEmpty else { throw PluginInput.Violation(field: .symbol, rule: "list is not empty for a plugin that failed to load") }
            return
        }
        guard let version = report.version, !version.isEmpty, !name.isEmpty else {
            throw PluginInput.Violation(field: .name, rule: "or version is missing")
        }
        self.version = try PluginInput.text(version, .version, limit: PluginInput.Limit.version)
        error = nil
        guard !reply.fetchers.isEmpty else { throw PluginInput.Violation(field: .symbol, rule: "list is empty for a plugin that loaded") }
        var seen: Set<String> = []
        fetchers = try reply.fetchers.map { fetcher throws(PluginInput.Violation) in
            let symbol = try PluginInput.symbol(fetcher.symbol)
            guard seen.insert(symbol).inserted else {
                throw PluginInput.Violation(field: .symbol, rule: "\(symbol) is listed twice")
            }
            if let owner = claims.owner(of: symbol) {
                throw PluginInput.Violation(field: .symbol, rule: "\(symbol) is already provided by \(owner)")
            }
            return LoadReply.Fetcher(symbol: symbol, displayName: try PluginInput.displayName(fetcher.displayName, symbol: symbol))
        }
    }
}
