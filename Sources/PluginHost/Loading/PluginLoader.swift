import Foundation
import Logging
import PluginABI

/// Loads plugin files and collects the fetchers they register.
///
/// Loading is sequential and in the order given, so "the first plugin to
/// register a symbol wins" is deterministic. A file that fails any step is
/// reported and skipped; the others still load.
public struct PluginLoader: Sendable {
    let services: HostServices
    let claims = SymbolClaims()

    /// Creates a loader whose plugins get `services`.
    public init(services: HostServices) {
        self.services = services
    }

    /// The outcome of loading a set of files.
    public struct Result: Sendable {
        /// One report per file, in load order.
        public var reports: [PluginReport] = []
        /// Every fetcher that registered, in load order.
        public var fetchers: [PluginFetcher] = []
    }

    /// Loads `files` in order.
    ///
    /// Each refused file is logged as one warning line naming it.
    /// - Parameter files: Paths of candidate plugin files.
    /// - Returns: A report per file and the fetchers that registered.
    public func load(_ files: [String]) -> Result {
        var result = Result()
        for path in files {
            do {
                let (report, fetchers) = try load(path)
                for warning in report.warnings {
                    services.logger.warning("\(path): \(warning)")
                }
                result.reports.append(report)
                result.fetchers += fetchers
            } catch {
                services.logger.warning("skipping \(path): \(error.error)")
                result.reports.append(
                    PluginReport(
                        name: error.name ?? URL(filePath: path).lastPathComponent, version: error.version, path: path,
                        status: .failed, fetchers: [], error: error.error.description, warnings: []
                    )
                )
            }
        }
        return result
    }

    /// A failure with whatever the descriptor told us before it happened.
    struct Failure: Error {
        let error: PluginLoadError
        var name: String?
        var version: String?
    }

    private func load(_ path: String) throws(Failure) -> (PluginReport, [PluginFetcher]) {
        let descriptor: Descriptor
        do {
            descriptor = try Self.descriptor(at: path)
        } catch {
            throw Failure(error: error)
        }
        let (name, version) = (descriptor.name, descriptor.version)
        let identity = PluginIdentity(name: name, version: version, path: path)
        func fail(_ error: PluginLoadError) -> Failure { Failure(error: error, name: name, version: version) }

        let session = PluginSession(path: path, name: name, services: services, claims: claims)
        session.setAcceptsRegistrations(true)
        let status = descriptor.register(HostServicesTable.make(for: session))
        session.setAcceptsRegistrations(false)

        let outcome = session.outcome
        guard status == PB_OK else {
            throw fail(PluginLoadError(.registrationFailed(status: Int32(bitPattern: status.rawValue), lastError: outcome.lastError)))
        }
        let warnings = outcome.duplicates.map {
            "symbol \($0.symbol) is already provided by \($0.owner); keeping that one and ignoring this plugin's"
        }
        guard !outcome.staged.isEmpty else {
            throw fail(PluginLoadError(.nothingRegistered(duplicates: outcome.duplicates.map { "\($0.symbol) by \($0.owner)" })))
        }
        claims.claim(outcome.staged.map(\.symbol), for: path)
        let fetchers = outcome.staged.map {
            PluginFetcher(symbol: $0.symbol, displayName: $0.displayName, plugin: identity, context: $0.context, fetch: $0.fetch)
        }
        let report = PluginReport(
            name: name, version: version, path: path, status: .loaded,
            fetchers: fetchers.map(\.symbol), error: nil, warnings: warnings
        )
        return (report, fetchers)
    }

    /// Opens the file and checks its descriptor before anything else of the
    /// plugin's runs (beyond its static initialisers, which `dlopen` runs).
    /// The checked parts of a `pb_plugin_descriptor`.
    private struct Descriptor {
        let name: String
        let version: String
        let register: pb_register_plugin_fn
    }

    private static func descriptor(at path: String) throws(PluginLoadError) -> Descriptor {
        let file = try PluginFile.open(path)
        let library = try DynamicLibrary.open(file.loadPath)
        guard let symbol = library.symbol(named: pluginEntrySymbol) else {
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

        let descriptor = pointer.pointee
        guard let name = descriptor.name else { throw PluginLoadError(.incompleteDescriptor(field: "name")) }
        guard let version = descriptor.version else { throw PluginLoadError(.incompleteDescriptor(field: "version")) }
        guard let register = descriptor.register_plugin else { throw PluginLoadError(.incompleteDescriptor(field: "register_plugin")) }
        return Descriptor(name: String(cString: name), version: String(cString: version), register: register)
    }
}
