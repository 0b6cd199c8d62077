import FoundationEssentials
import HostShared
import Logging
import PluginABI

/// Loads plugin files and collects the fetchers they register.
///
/// Loading is sequential and in the order given, so "the first plugin to
/// register a symbol wins" is deterministic. A file that fails any step is
/// reported and skipped; the others still load.
package struct PluginLoader: Sendable {
    let services: HostServices
    let trust: PluginTrust
    let claims: SymbolClaims

    /// Creates a loader whose plugins get `services`.
    /// - Parameters:
    ///   - services: What every plugin is offered.
    ///   - trust: The checks a file passes before it is loaded.
    package init(services: HostServices, trust: PluginTrust = PluginTrust()) {
        self.init(services: services, trust: trust, claims: SymbolClaims())
    }

    init(services: HostServices, trust: PluginTrust, claims: SymbolClaims) {
        self.services = services
        self.trust = trust
        self.claims = claims
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
        // Every dlopen of a Swift library empties the Swift runtime's
        // protocol-conformance cache, and refilling it scans every
        // conformance in the process. So all files are opened first and
        // registered after: the work of registering refills the cache once
        // rather than once per plugin. The order of registration, and so
        // which plugin wins a symbol, is still the order of `files`.
        let locks = LockFileCache(trust: trust)
        let clock = ContinuousClock()
        let opened = files.map { path in
            let started = clock.now
            let descriptor = Result { () throws(Failure) in try open(path, locks: locks) }
            if case .success = descriptor {
                services.logger.debug("\(path): checked and loaded in \((clock.now - started).humanReadable)")
            }
            return (path, descriptor)
        }
        var result = Outcome()
        for (path, descriptor) in opened {
            let started = clock.now
            let outcome = Result { () throws(Failure) in try register(path, descriptor.get()) }
            if case .success = outcome {
                services.logger.debug("\(path): registered in \((clock.now - started).humanReadable)")
            }
            result.record(outcome, for: path, services: services)
        }
        return result
    }

    /// Opens and checks one file, loads it and checks its descriptor.
    private func open(_ path: String, locks: LockFileCache) throws(Failure) -> Descriptor {
        do throws(PluginLoadError) {
            return try Self.descriptor(of: PluginFile.open(path, rules: trust.rules, lock: locks.lock(for: path)))
        } catch {
            throw Failure(error: error)
        }
    }

    /// Loads one file that was already opened and checked, and claims its
    /// symbols. Logs nothing: the caller reports the outcome.
    func load(_ path: String, from file: PluginFile) throws(Failure) -> (PluginReport, [PluginFetcher]) {
        let descriptor: Descriptor
        do {
            descriptor = try Self.descriptor(of: file)
        } catch {
            throw Failure(error: error)
        }
        return try register(path, descriptor)
    }

    /// Opens, checks and loads one file, checking first that it is still the
    /// file a listing described. Logs nothing: the caller reports the outcome.
    func loadOne(_ path: String, expecting identity: FileIdentity?) -> Result<(PluginReport, [PluginFetcher]), Failure> {
        Result { () throws(Failure) in
            let file: PluginFile
            do throws(PluginLoadError) {
                file = try PluginFile.open(path, rules: trust.rules, lock: LockFileCache(trust: trust).lock(for: path), expecting: identity)
            } catch {
                throw Failure(error: error)
            }
            return try load(path, from: file)
        }
    }

    /// A failure with whatever the descriptor told us before it happened.
    struct Failure: Error, Sendable {
        let error: PluginLoadError
        var name: String?
        var version: String?
        var metadata: PluginMetadata?
    }

    private func register(_ path: String, _ descriptor: Descriptor) throws(Failure) -> (PluginReport, [PluginFetcher]) {
        let (name, version) = (descriptor.name, descriptor.version)
        let identity = PluginIdentity(name: name, version: version, path: path)
        func fail(_ error: PluginLoadError) -> Failure { Failure(error: error, name: name, version: version, metadata: descriptor.metadata) }

        let session = PluginSession(path: path, name: name, services: services, claims: claims)
        session.setAcceptsRegistrations(true)
        let status = descriptor.register(HostServicesVendor.make(for: session))
        session.setAcceptsRegistrations(false)

        let outcome = session.outcome
        guard status == PB_OK else {
            throw fail(PluginLoadError(.registrationFailed(status: Int32(bitPattern: status.rawValue), lastError: outcome.lastError)))
        }
        let warnings = outcome.duplicates.map { Self.duplicateWarning(symbol: $0.symbol, owner: $0.owner) }
        guard !outcome.staged.isEmpty else {
            throw fail(PluginLoadError(.nothingRegistered(duplicates: outcome.duplicates.map { "\($0.symbol) by \($0.owner)" }, refused: outcome.refused)))
        }
        claims.claim(outcome.staged.map(\.symbol), for: path)
        let fetchers = outcome.staged.map {
            PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, plugin: identity, context: $0.context, fetch: $0.fetch, session: session)
        }
        var report = PluginReport(
            name: name, version: version, path: path, status: .loaded,
            fetchers: fetchers.map(\.symbol), error: nil, warnings: warnings
        )
        report.metadata = descriptor.metadata
        return (report, fetchers)
    }

    /// The warning for a plugin that registered a symbol an earlier one keeps.
    static func duplicateWarning(symbol: String, owner: String) -> String {
        "symbol \(symbol) is already provided by \(owner); keeping that one and ignoring this plugin's"
    }

    /// The checked parts of a `pb_plugin_descriptor`.
    private struct Descriptor {
        let name: String
        let version: String
        let metadata: PluginMetadata
        let register: pb_register_plugin_fn
    }

    /// Loads the checked file and checks its descriptor before anything else
    /// of the plugin's runs (beyond its static initialisers, which `dlopen` runs).
    private static func descriptor(of file: PluginFile) throws(PluginLoadError) -> Descriptor {
        let library = try DynamicLibrary.open(file.loadPath)
        guard let symbol = library.symbol(named: PB_PLUGIN_ENTRY_SYMBOL) else {
            throw PluginLoadError(.missingEntryPoint)
        }
        let entry = unsafeBitCast(symbol, to: pb_plugin_entry_fn.self)
        guard let pointer = entry() else { throw PluginLoadError(.nullDescriptor) }

        // Read the fixed-layout prefix first: a plugin from another ABI may
        // have a smaller struct, and reading past it would be undefined.
        let prefix = UnsafeRawPointer(pointer)
        let magic = prefix.load(as: UInt32.self)
        guard magic == PB_PLUGIN_MAGIC else { throw PluginLoadError(.badMagic(found: magic)) }
        let abiVersion = prefix.load(fromByteOffset: 4, as: UInt32.self)
        guard abiVersion == PB_PLUGIN_ABI_VERSION else { throw PluginLoadError(.abiMismatch(plugin: abiVersion)) }
        let size = prefix.load(fromByteOffset: 8, as: UInt32.self)
        guard size >= minimumDescriptorSize else { throw PluginLoadError(.descriptorTooSmall(plugin: size)) }

        // Not `pointer.pointee`: that copies this header's whole struct, and a
        // plugin built against an earlier revision has a smaller one.
        func field<Value>(_ field: KeyPath<pb_plugin_descriptor, Value?>) -> Value? {
            guard let offset = MemoryLayout<pb_plugin_descriptor>.offset(of: field),
                offset + MemoryLayout<Value?>.size <= Int(size)
            else { return nil }
            return prefix.load(fromByteOffset: offset, as: Value?.self)
        }
        let namePointer = field(\.name), versionPointer = field(\.version)
        guard namePointer != nil else { throw PluginLoadError(.incompleteDescriptor(field: "name")) }
        guard versionPointer != nil else { throw PluginLoadError(.incompleteDescriptor(field: "version")) }
        guard let register = field(\.register_plugin) else { throw PluginLoadError(.incompleteDescriptor(field: "register_plugin")) }
        do throws(PluginOutputRules.Violation) {
            let name = try PluginOutputRules.requiredText(namePointer, .name, limit: PluginOutputRules.Limit.name)
            let version = try PluginOutputRules.requiredText(versionPointer, .version, limit: PluginOutputRules.Limit.version)
            let metadata = try PluginOutputRules.metadata(
                abiVersion: abiVersion, descriptorSize: size, description: field(\.description), author: field(\.author),
                license: field(\.license), homepage: field(\.homepage))
            return Descriptor(name: name, version: version, metadata: metadata, register: register)
        } catch {
            throw PluginLoadError(.invalidDescriptor(error))
        }
    }
}

extension PluginLoader.Outcome {
    /// Adds one file's outcome, logging a warning line per problem.
    mutating func record(
        _ outcome: Result<(PluginReport, [PluginFetcher]), PluginLoader.Failure>, for path: String, services: HostServices
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
            logger.warning("skipping \(path): \(failure.error.message(naming: services.names))")
            reports.append(failure.report(for: path, names: services.names))
        }
    }
}

extension PluginLoader.Failure {
    /// The `failed` report for the file at `path`, its error worded with `names`.
    func report(for path: String, names: SettingNames = SettingNames()) -> PluginReport {
        var report = PluginReport(
            name: name ?? URL(filePath: path).lastPathComponent, version: version, path: path,
            status: .failed, fetchers: [], error: error.message(naming: names), warnings: []
        )
        report.metadata = metadata
        return report
    }
}
