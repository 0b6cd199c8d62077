import FoundationEssentials
import Logging
import PluginBoundary
import PluginABI

/// The plugins a host loaded and the registry they filled.
package struct LoadedPlugins: Sendable {
    /// One report per plugin file, in load order.
    package let reports: [PluginReport]
    /// The fetchers, by symbol.
    package let registry: FetcherRegistry
    /// The isolated workers serving the fetchers, if loaded with `--isolate`.
    let workers: [WorkerConnection]
    /// The plugins that load on their first fetch, with the scan cache.
    var onDemand: OnDemandPlugins?
    /// How to get plugins when none loaded, for an unknown symbol's message.
    var noPluginsFix: String?
    /// The services the plugins were given, whose allowances the run ends with.
    var services: HostServices?
    /// Scans of new files nobody vouched for that run beside this run's
    /// fetch, for the next run: ``shutdown()`` waits for them, within their limit.
    var background: BackgroundScan?
    /// The run's places for strangers' workers, reported with `-v` at shutdown.
    var workerSlots: WorkerSlots?

    /// Stops the isolated workers, if any, then waits for the background
    /// scans within their limit: ``stopWorkers()`` then ``finishBackgroundScans()``.
    package func shutdown() async {
        await stopWorkers()
        await finishBackgroundScans()
    }

    /// Stops the isolated workers, if any: closes their pipes, which makes
    /// them exit, and reaps them. Does nothing for in-process plugins, which
    /// are never unloaded. Leaves the background scans running, so that a
    /// fetch can print its answer before it waits for them.
    package func stopWorkers() async {
        await withTaskGroup(of: Void.self) { group in
            for worker in workers {
                group.addTask { await worker.shutdown() }
            }
            // Only the few a fetch loaded in workers: a task each for a thousand idle plugins is not free.
            for plugin in onDemand?.loadedInWorkers ?? [] {
                group.addTask { await plugin.shutdown() }
            }
            // Workers started for a fetch that did not take them (a file refused when listed).
            for prestart in onDemand?.prestarts.values.map({ $0 }) ?? [] {
                group.addTask { await prestart.shutdownUnused() }
            }
        }
        await Self.letAnsweredCallsReturn()
        // After the workers' last lines: one line per plugin that lost some to the cap.
        if let services { services.allowances.reportDroppedLogLines(to: services.logger) }
    }

    /// Waits for the scans of new files nobody vouched for that run beside
    /// this run (`background`), which their limit bounds, then reports what
    /// they and the run's workers took (`-v`).
    package func finishBackgroundScans() async {
        if let background {
            await background.finish()
            // The scans' workers' lines, as ``stopWorkers()`` reports the fetch's.
            if let services { services.allowances.reportDroppedLogLines(to: services.logger) }
        }
        if let services, let summary = workerSlots?.summary { services.logger.debug("\(summary)") }
        workerSlots?.finish()
    }

    /// Gives an in-process plugin whose `fetch` has answered a moment to
    /// return, so that whatever it does on the way out (a second answer,
    /// which is logged) is seen before the run exits; a call that never
    /// answered is not waited for, and none for more than two seconds.
    private static func letAnsweredCallsReturn() async {
        let deadline = ContinuousClock.now + .seconds(2)
        while PendingFetches.shared.hasAnsweredCallsRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Fetches every symbol concurrently, each from its first source and,
    /// when that fails, the next.
    /// - Parameters:
    ///   - symbols: What to fetch, as the user typed it (`eth` finds `ETH`).
    ///   - currency: The quote currency.
    ///   - timeout: How long each symbol may take.
    /// - Returns: One result per symbol, in the order asked.
    package func fetch(_ symbols: [String], currency: String, timeout: Duration) async -> [Result<Quote, FetchError>] {
        await fetch(symbols, currency: currency, timeout: timeout, plan: FetchPlan()).map(\.result)
    }

    /// Fetches every symbol concurrently, asking its sources as `plan` says.
    /// - Parameters:
    ///   - symbols: What to fetch, as the user typed it (`eth` finds `ETH`).
    ///   - currency: The quote currency.
    ///   - timeout: How long each symbol may take, all its sources together.
    ///   - plan: Which sources are asked, and when.
    /// - Returns: One fetch per symbol, in the order asked.
    package func fetch(_ symbols: [String], currency: String, timeout: Duration, plan: FetchPlan) async -> [SymbolFetch] {
        let failedFiles = reports.count { $0.status == .failed }
        return await withTaskGroup(of: (Int, SymbolFetch).self) { group in
            for (index, symbol) in symbols.enumerated() {
                group.addTask {
                    let sources: [PluginFetcher]
                    do throws(FetchError) {
                        if case .named(let name) = plan.sources {
                            sources = try registry.sources(for: symbol, named: name)
                        } else {
                            sources = try registry.sources(for: symbol, named: nil)
                        }
                    } catch {
                        var error = error
                        error.failedPluginFiles = failedFiles
                        error.noPluginsFix = noPluginsFix
                        return (index, SymbolFetch(symbol: symbol, error: error))
                    }
                    let vouched = sources.map(registry.isVouched)
                    switch plan.sources {
                    case .all:
                        let every = EverySource(
                            symbol: symbol, currency: currency, sources: sources, vouched: vouched, timeout: timeout, countUnvouched: plan.countUnvouched)
                        return (index, await every.run())
                    case .failover, .named:
                        let failover = Failover(symbol: symbol, currency: currency, sources: sources, vouched: vouched, timeout: timeout, hedge: plan.hedge)
                        return (index, await failover.run())
                    }
                }
            }
            var results = [SymbolFetch?](repeating: nil, count: symbols.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }
}
