import HostShared
import Logging
import PluginBoundary
import WorkerProtocol

/// Loads plugins each in a worker process of its own (`patchbay-worker`).
///
/// The host opens and checks each file itself, exactly as in-process
/// (ownership, permissions, lock file, ELF headers), and hands the checked
/// descriptor to the worker, which loads it through `/proc/self/fd/5`.
/// Workers start all at once, so their start-up overlaps, and their reports
/// come back in file order, the search order the registry's
/// ``SymbolProviders`` ranks equals by, exactly as in-process. A worker
/// reports everything its plugin registered; the host decides.
///
/// Each worker confines itself before it loads anything and reports its
/// sandbox first; the host sends `load` only after that report, and refuses
/// the plugin there when ``IsolationOptions/requireFullSandbox`` is set and
/// the sandbox is not full.
struct IsolatedPluginLoader: Sendable {
    let services: HostServices
    let trust: PluginTrust
    var options: IsolationOptions
    /// Set once a sandbox short of full has been warned about in this run.
    var warnedAboutSandbox = OnceFlag()
    /// Who vouched for the plugin at a path: it is part of the plugin's
    /// identity, and lets it fetch under the API base it declares.
    var voucher: @Sendable (String) -> Placement.Voucher = { _ in .nobody }
    /// Whether a worker of a plugin nobody vouched for waits for a place
    /// among ``IsolationOptions/slots`` before it starts, and gives it back
    /// when it is stopped. Off for `--no-cache`, which keeps every worker it
    /// loads until the run ends: there, only each worker's limit applies.
    var takesSlots = false
    /// Whether its workers' log lines are dropped: a scan's, since the
    /// plugin is loaded again when it is used, and its failure is reported
    /// apart; shown, they would print twice on a first run.
    var quiet = false

    /// Loads `files`, all at once; the result's fetchers call into the workers.
    func load(_ files: [String]) async -> (PluginLoader.Outcome, [WorkerConnection]) {
        let locks = LockFileCache(trust: trust)
        // Each file's start and load at once: one that hangs costs its own load timeout, not the others'.
        var loads = [(Result<(PluginReport, [PluginFetcher]), PluginLoadError>, SandboxReport, WorkerConnection?)?](repeating: nil, count: files.count)
        await withTaskGroup(of: (Int, (Result<(PluginReport, [PluginFetcher]), PluginLoadError>, SandboxReport, WorkerConnection?)).self) { group in
            for (index, path) in files.enumerated() {
                group.addTask { (index, await finish(path, started: await start(path, locks: locks))) }
            }
            for await (index, loaded) in group { loads[index] = loaded }
        }

        var result = PluginLoader.Outcome()
        var workers: [WorkerConnection] = []
        for (path, loaded) in zip(files, loads) {
            guard let (outcome, sandbox, worker) = loaded else { continue }
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
    func loadOne(_ path: String, locks: LockFileCache, expecting identity: FileIdentity?) async -> (
        Result<(PluginReport, [PluginFetcher]), PluginLoadError>, SandboxReport, WorkerConnection?
    ) {
        await finish(path, started: await start(path, locks: locks, expecting: identity))
    }

    /// Has a started worker load its plugin; shuts the worker down unless the plugin loaded.
    func finish(_ path: String, started: Result<WorkerConnection, PluginLoadError>) async -> (
        Result<(PluginReport, [PluginFetcher]), PluginLoadError>, SandboxReport, WorkerConnection?
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
    ) async -> (Result<(PluginReport, [PluginFetcher]), PluginLoadError>, SandboxReport) {
        let sandbox: SandboxReport
        switch await worker.sandbox(timeout: options.loadTimeout) {
        case .failure(let failure):
            return (.failure(PluginLoadError(.isolated(failure))), .unconfined)
        case .success(let report):
            // The worker says what it did to itself; the host knows what it started it in.
            sandbox = report.adding(worker.process.missing)
        }
        if let cost = sandbox.cost {
            services.logger.debug("\(path): worker sandbox \(sandbox.summary), confined in \(cost)")
        }
        if sandbox.level != .full {
            if options.requireFullSandbox {
                return (.failure(PluginLoadError(.sandboxRequired(sandbox))), sandbox)
            }
            if warnedAboutSandbox.set() {
                services.logger.warning("\(sandbox.machineWarning)")
            }
        }
        return (await load(path, in: worker), sandbox)
    }

    /// Checks the file here, and that it is still the one a listing
    /// described when `identity` is given, and starts its worker.
    func start(_ path: String, locks: LockFileCache, expecting identity: FileIdentity? = nil) async -> Result<WorkerConnection, PluginLoadError> {
        switch open(path, locks: locks, expecting: identity) {
        case .failure(let failure): .failure(failure)
        case .success(let file): await spawn(path, file: file)
        }
    }

    /// Opens and checks the file, as in-process: trust rules, lock file, ELF
    /// headers; and when `identity` is given, that it is still that file.
    func open(_ path: String, locks: LockFileCache, expecting identity: FileIdentity?) -> Result<PluginFile, PluginLoadError> {
        do throws(PluginLoadError) {
            return .success(try PluginFile.open(path, rules: trust.rules, lock: locks.lock(for: path), expecting: identity))
        } catch {
            return .failure(error)
        }
    }

    /// Starts a worker for a checked file, handing it the descriptor.
    func spawn(_ path: String, file: PluginFile) async -> Result<WorkerConnection, PluginLoadError> {
        // The worker has its own copy of the descriptor; the host never loads this one.
        defer { file.closeUnloaded() }
        let slots = takesSlots && voucher(path) == .nobody ? options.slots : nil
        await slots?.acquire()
        do throws(WorkerError) {
            let executable = try options.executable.get()
            let process = try await WorkerProcess.spawn(
                executable: executable, plugin: file.descriptor, skipping: options.skippedSandboxLayers,
                addressSpace: options.memoryBudget.perWorkerBytes)
            // Before the load request, which is when the worker first runs plugin code.
            options.slots.admit(process.pid, logger: services.logger)
            let worker = WorkerConnection.connect(to: process, path: path, services: services, quiet: quiet, grant: file.grantClaim)
            if let slots { worker.whenShutDown { slots.release() } }
            return .success(worker)
        } catch {
            slots?.release()
            return .failure(PluginLoadError(.isolated(error)))
        }
    }

    /// How the plugin's log lines name it, once its report is checked: as
    /// every output names it (``PluginIdentity/label``), never by the name
    /// it declares alone unless someone vouched for it.
    private func label(of descriptor: LoadReply.Descriptor, _ path: String) -> String {
        PluginIdentity.label(name: descriptor.name, path: path, voucher: voucher(path))
    }

    /// Has the worker load its plugin, and checks its reply as an
    /// in-process registration is checked.
    private func load(_ path: String, in worker: WorkerConnection) async -> Result<(PluginReport, [PluginFetcher]), PluginLoadError> {
        let request = LoadRequest(
            path: path, configuration: services.configurationValues, apiBases: services.apiBases.forFile(path, vouched: voucher(path) != .nobody),
            defaultTimeoutMilliseconds: services.defaultTimeout.timeoutMilliseconds,
            logLevel: services.showsPluginLines && !quiet ? LogFrame.Level(services.logger.logLevel) : nil)
        let reply: LoadReply
        switch await worker.load(request, timeout: options.loadTimeout) {
        case .failure(let failure): return .failure(PluginLoadError(.isolated(failure)))
        case .success(let received): reply = received
        }
        // The plugin runs in the worker and can write this reply itself: it
        // passes the rules an in-process registration passes.
        let checked: LoadReply
        do throws(PluginOutputRules.Violation) {
            checked = try reply.checked(for: path)
        } catch {
            let detail = "its load report was refused: \(error)"
            worker.protocolViolation(detail)
            return .failure(PluginLoadError(.isolated(WorkerError(.loading, .protocolViolation(detail)))))
        }
        func fail(_ error: PluginLoadError, _ descriptor: LoadReply.Descriptor) -> PluginLoadError {
            error.describing(name: descriptor.name, version: descriptor.version, metadata: descriptor.metadata)
        }
        switch checked {
        case .refused(let error):
            return .failure(PluginLoadError(image: error))
        case .registrationFailed(let descriptor, let status, let lastError):
            worker.identify(as: descriptor.name, label: label(of: descriptor, path), endpoint: endpoint(of: descriptor, path: path, grant: worker.grant))
            return .failure(fail(PluginLoadError(.registrationFailed(status: status, lastError: lastError)), descriptor))
        case .registered(let descriptor, let registrations):
            let endpoint = endpoint(of: descriptor, path: path, grant: worker.grant)
            worker.identify(as: descriptor.name, label: label(of: descriptor, path), endpoint: endpoint)
            guard !registrations.fetchers.isEmpty else {
                return .failure(fail(PluginLoadError(.nothingRegistered(refused: registrations.refused)), descriptor))
            }
            let identity = PluginIdentity(name: descriptor.name, version: descriptor.version, path: path, voucher: voucher(path))
            let fetchers = registrations.fetchers.map {
                PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, rank: SourceRank($0.rank), plugin: identity, worker: worker)
            }
            var report = PluginReport(
                name: descriptor.name, version: descriptor.version, path: path, status: .loaded, fetchers: fetchers.map(\.symbol), error: nil,
                warnings: registrations.duplicates.map(PluginLoader.repeatWarning))
            report.metadata = descriptor.metadata
            report.record(endpoint)
            return .success((report, fetchers))
        }
    }
}

extension IsolatedPluginLoader {
    /// The worker's plugin's API base and what it may fetch, from the
    /// descriptor the worker reported: its name and declared base are the
    /// plugin's own claims, which can win it nothing the host would not
    /// give any plugin of that name.
    /// The user's network grant, with the digest of the file the worker
    /// was handed (`grant`), holds only while they match.
    func endpoint(of descriptor: LoadReply.Descriptor, path: String, grant: NetworkGrant.Claim?) -> PluginEndpoint {
        services.endpoint(
            for: PluginIdentity(name: descriptor.name, version: descriptor.version, path: path, voucher: voucher(path)), declared: descriptor.metadata.apiBaseURL,
            grant: grant)
    }
}

extension LogFrame.Level {
    /// The least severe line a logger at `level` takes.
    init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info, .notice: self = .info
        case .warning: self = .warning
        case .error, .critical: self = .error
        }
    }
}
