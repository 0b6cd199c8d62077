#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
struct IsolatedPluginLoader: Sendable {
    let services: HostServices
    let trust: PluginTrust
    let options: IsolationOptions

    /// Loads `files`; the result's fetchers call into the workers.
    func load(_ files: [String]) async -> (PluginLoader.Result, [WorkerConnection]) {
        let locks = LockFileCache(trust: trust)
        var started: [Result<WorkerConnection, PluginLoader.Failure>] = []
        for path in files {
            started.append(await start(path, locks: locks))
        }

        let claims = SymbolClaims()
        var result = PluginLoader.Result()
        var workers: [WorkerConnection] = []
        for (path, start) in zip(files, started) {
            let outcome: Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure>
            switch start {
            case .failure(let failure):
                outcome = .failure(failure)
            case .success(let worker):
                outcome = await load(path, in: worker, claims: claims)
                if case .success = outcome {
                    workers.append(worker)
                } else {
                    await worker.shutdown()
                }
            }
            result.record(outcome, for: path, logger: services.logger)
        }
        return (result, workers)
    }

    /// Checks the file here and starts its worker.
    private func start(_ path: String, locks: LockFileCache) async -> Result<WorkerConnection, PluginLoader.Failure> {
        let file: PluginFile
        do {
            file = try PluginFile.open(path, rules: trust.rules, lock: locks.lock(for: path))
        } catch {
            return .failure(PluginLoader.Failure(error: error))
        }
        // The worker has its own copy of the descriptor; the host never loads this one.
        defer { file.closeUnloaded() }
        do throws(WorkerFailure) {
            let process = try WorkerProcess.spawn(executable: options.workerExecutable, arguments: options.workerArguments, plugin: file.descriptor)
            return .success(WorkerConnection.connect(to: process, path: path, services: services))
        } catch {
            return .failure(PluginLoader.Failure(error: PluginLoadError(.isolated(error))))
        }
    }

    /// Has the worker load its plugin and turns its reply into fetchers.
    private func load(_ path: String, in worker: WorkerConnection, claims: SymbolClaims) async -> Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure> {
        let request = LoadRequest(
            path: path,
            configuration: services.configurationValues,
            defaultTimeoutMilliseconds: Int64(services.defaultTimeout.clampedMilliseconds),
            logLevel: services.logger.logLevel.rawValue,
            claims: claims.all
        )
        switch await worker.load(request, timeout: options.loadTimeout) {
        case .failure(let failure):
            return .failure(PluginLoader.Failure(error: PluginLoadError(.isolated(failure))))
        case .success(let reply):
            guard reply.report.status == .loaded, let version = reply.report.version else {
                return .failure(PluginLoader.Failure(error: PluginLoadError(.reportedByWorker(reply.report.error ?? "failed")), name: reply.report.name, version: reply.report.version))
            }
            claims.claim(reply.fetchers.map(\.symbol), for: path)
            let identity = PluginIdentity(name: reply.report.name, version: version, path: path)
            let fetchers = reply.fetchers.map {
                PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, plugin: identity, worker: worker)
            }
            return .success((reply.report, fetchers))
        }
    }
}
