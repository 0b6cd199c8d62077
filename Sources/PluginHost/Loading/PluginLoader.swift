import FoundationEssentials
import HostShared
import Logging
import PluginABI
import PluginBoundary

/// Loads plugin files and collects the fetchers they register.
///
/// Loading is sequential and in the order given, which is the search order
/// the registry's ``SymbolProviders`` ranks equals by. A file that fails
/// any step is reported and skipped; the others still load.
package struct PluginLoader: Sendable {
    let services: HostServices
    let trust: PluginTrust
    /// Who vouched for the plugin at a path: it is part of the plugin's
    /// identity, and lets it fetch under the API base it declares.
    let voucher: @Sendable (String) -> Placement.Voucher

    /// Creates a loader whose plugins get `services`.
    /// - Parameters:
    ///   - services: What every plugin is offered.
    ///   - trust: The checks a file passes before it is loaded.
    ///   - voucher: Who vouched for the plugin at a path; by default nobody did.
    package init(
        services: HostServices, trust: PluginTrust = PluginTrust(), voucher: @escaping @Sendable (String) -> Placement.Voucher = { _ in .nobody }
    ) {
        self.services = services
        self.trust = trust
        self.voucher = voucher
    }

    /// The outcome of loading a set of files.
    package struct Outcome: Sendable {
        /// One report per file, in load order.
        package var reports: [PluginReport] = []
        /// Every fetcher that registered, in load order.
        package var fetchers: [PluginFetcher] = []
    }

    /// Loads `files` in order.
    ///
    /// Each refused file is logged as one warning line naming it.
    /// - Parameter files: Paths of candidate plugin files.
    /// - Returns: A report per file and the fetchers that registered.
    package func load(_ files: [String]) -> Outcome {
        load(files, locks: LockFileCache(trust: trust))
    }

    /// Loads `files` in order, each checked against `locks`, the run's lock files.
    func load(_ files: [String], locks: LockFileCache) -> Outcome {
        // Every dlopen of a Swift library empties the Swift runtime's
        // protocol-conformance cache, and refilling it scans every
        // conformance in the process. So all files are opened first and
        // registered after: the work of registering refills the cache once
        // rather than once per plugin. The order of registration, and so
        // which plugin wins a symbol, is still the order of `files`.
        let clock = ContinuousClock()
        let opened = files.map { path in
            let started = clock.now
            let descriptor = Result { () throws(PluginLoadError) in try open(path, locks: locks) }
            if case .success = descriptor {
                services.logger.debug("\(path): checked and loaded in \((clock.now - started).humanReadable)")
            }
            return (path, descriptor)
        }
        var result = Outcome()
        for (path, descriptor) in opened {
            let started = clock.now
            let outcome = Result { () throws(PluginLoadError) in
                let (opened, claim) = try descriptor.get()
                return try register(path, opened, grant: claim)
            }
            if case .success = outcome {
                services.logger.debug("\(path): registered in \((clock.now - started).humanReadable)")
            }
            result.record(outcome, for: path, services: services)
        }
        return result
    }

    /// Opens and checks one file, loads it and checks its descriptor.
    private func open(_ path: String, locks: LockFileCache) throws(PluginLoadError) -> (PluginDescriptor, NetworkGrant.Claim?) {
        let file = try PluginFile.open(path, rules: trust.rules, lock: locks.lock(for: path))
        return (try Self.descriptor(of: file), file.grantClaim)
    }

    /// Loads one file that was already opened and checked. Logs nothing:
    /// the caller reports the outcome.
    func load(_ path: String, from file: PluginFile) throws(PluginLoadError) -> (PluginReport, [PluginFetcher]) {
        try register(path, Self.descriptor(of: file), grant: file.grantClaim)
    }

    /// Opens, checks and loads one file, checking first that it is still the
    /// file a listing described. Logs nothing: the caller reports the outcome.
    func loadOne(_ path: String, locks: LockFileCache, expecting identity: FileIdentity?) -> Result<(PluginReport, [PluginFetcher]), PluginLoadError> {
        Result { () throws(PluginLoadError) in
            try load(path, from: PluginFile.open(path, rules: trust.rules, lock: locks.lock(for: path), expecting: identity))
        }
    }

    private func register(_ path: String, _ descriptor: PluginDescriptor, grant: NetworkGrant.Claim?) throws(PluginLoadError) -> (PluginReport, [PluginFetcher]) {
        let (name, version) = (descriptor.name, descriptor.version)
        let voucher = voucher(path)
        let identity = PluginIdentity(name: name, version: version, path: path, voucher: voucher)
        func fail(_ error: PluginLoadError) -> PluginLoadError { error.describing(name: name, version: version, metadata: descriptor.metadata) }

        let endpoint = services.endpoint(for: identity, declared: descriptor.metadata.apiBaseURL, grant: grant)
        let session = PluginSession(path: path, name: name, label: identity.label, services: services, endpoint: endpoint)
        let status = session.register(descriptor)
        let registered = session.registrations.outcome
        guard status == PB_OK else {
            throw fail(PluginLoadError(.registrationFailed(status: Int32(bitPattern: status.rawValue), lastError: registered.lastError)))
        }
        guard !registered.taken.isEmpty else {
            throw fail(PluginLoadError(.nothingRegistered(refused: registered.refused)))
        }
        let fetchers = registered.taken.map {
            PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, rank: SourceRank($0.rank), plugin: identity, registration: $0, session: session)
        }
        var report = PluginReport(
            name: name, version: version, path: path, status: .loaded,
            fetchers: fetchers.map(\.symbol), error: nil, warnings: registered.duplicates.map(PluginLoader.repeatWarning)
        )
        report.metadata = descriptor.metadata
        report.record(endpoint)
        return (report, fetchers)
    }

    /// The warning for a symbol a plugin registered twice.
    static func repeatWarning(_ duplicate: FetcherRegistrations.Duplicate) -> String {
        "registered \(duplicate.symbol) twice; keeping its first fetcher for it"
    }

    /// Loads the checked file and checks its descriptor before anything else
    /// of the plugin's runs (beyond its static initialisers, which `dlopen` runs).
    private static func descriptor(of file: PluginFile) throws(PluginLoadError) -> PluginDescriptor {
        do {
            return try PluginDescriptor.load(file.loadPath)
        } catch {
            throw PluginLoadError(image: error)
        }
    }
}

extension PluginLoader.Outcome {
    /// Adds one file's outcome, logging a warning line per problem.
    mutating func record(
        _ outcome: Result<(PluginReport, [PluginFetcher]), PluginLoadError>, for path: String, services: HostServices
    ) {
        let logger = services.logger
        switch outcome {
        case .success(let (report, fetchers)):
            for warning in report.warnings {
                logger.warning("\(path): \(warning)")
            }
            reports.append(report)
            self.fetchers += fetchers
        case .failure(let failure):
            if case .isolated(let worker) = failure.kind, worker.isRunWide {
                // The same for every plugin of the run: one line says it.
                if WorkerError.noWorkerReported.set() { logger.error("\(failure.message(naming: services.names))") }
            } else {
                logger.warning("skipping \(path): \(failure.message(naming: services.names))")
            }
            reports.append(failure.report(for: path, names: services.names))
        }
    }
}

extension PluginLoadError {
    /// The `failed` report for the file at `path`, its error worded with `names`.
    func report(for path: String, names: SettingNames = SettingNames()) -> PluginReport {
        var report = PluginReport(
            name: name ?? URL(filePath: path).lastPathComponent, version: version, path: path,
            status: .failed, fetchers: [], error: message(naming: names), warnings: []
        )
        report.metadata = metadata
        return report
    }
}
