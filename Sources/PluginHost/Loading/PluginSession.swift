import Logging
import PluginABI
import Synchronization

/// The host's side of one plugin: what its `host_context` points at.
///
/// A session outlives everything: the plugin may keep the services table and
/// call `log`, `config_value` or `http_get` from any thread for the rest of
/// the process, so sessions are retained forever once handed out.
final class PluginSession: Sendable {
    /// The plugin file, as found.
    let path: String
    let services: HostServices
    let claims: SymbolClaims
    let logger: Logger
    /// Its API base and what it may fetch.
    let endpoint: PluginEndpoint
    /// `config_value("api_base_url")`: its base, as a C string that lives
    /// as long as the process; nil when it has none.
    private let apiBaseURL: CString?

    private let state: Mutex<State>
    /// `http_get` requests started and not yet answered, so a timeout can
    /// blame the network or the plugin.
    private let requestsInFlight = Atomic<Int>(0)

    struct State {
        var name: String
        var acceptsRegistrations = false
        var staged: [StagedFetcher] = []
        var duplicates: [Duplicate] = []
        /// Why each refused `register_fetcher` call was refused.
        var refused: [String] = []
        var lastError: String?
    }

    /// A fetcher accepted during `register_plugin`, not yet committed.
    struct StagedFetcher: Sendable {
        let symbol: String
        let displayName: String
        let context: OpaqueContext
        let fetch: FetchFunction
        /// What the plugin declared, before the host's cap and the user's overrides.
        let rank: SourceRank
    }

    /// A symbol this plugin tried to take from an earlier one.
    struct Duplicate: Sendable, Equatable {
        let symbol: String
        let owner: String
    }

    init(path: String, name: String, services: HostServices, claims: SymbolClaims, endpoint: PluginEndpoint) {
        self.path = path
        self.services = services
        self.claims = claims
        self.endpoint = endpoint
        self.apiBaseURL = endpoint.base.url.isEmpty ? nil : CString(endpoint.base.url)
        var logger = services.logger
        logger[metadataKey: "plugin"] = "\(name)"
        self.logger = logger
        self.state = Mutex(State(name: name))
    }

    /// The descriptor's name, for messages about this plugin.
    var name: String { state.withLock { $0.name } }

    /// Opens or closes the window in which `register_fetcher` is valid.
    func setAcceptsRegistrations(_ accepts: Bool) {
        state.withLock { $0.acceptsRegistrations = accepts }
    }

    /// What the plugin registered and tried to register.
    var outcome: (staged: [StagedFetcher], duplicates: [Duplicate], refused: [String], lastError: String?) {
        state.withLock { ($0.staged, $0.duplicates, $0.refused, $0.lastError) }
    }

    /// Handles `register_fetcher`, through the same rules a worker's report gets.
    ///
    /// Reads only what the fetcher's `struct_size` covers: a plugin built
    /// before `rank` has a smaller struct, so `pointee` would read past it.
    func register(_ fetcher: UnsafePointer<pb_fetcher>) -> pb_status {
        let raw = UnsafeRawPointer(fetcher)
        let size = raw.load(as: UInt32.self)
        guard size >= minimumFetcherSize else {
            return refuse("its pb_fetcher.struct_size is \(size), expected at least \(minimumFetcherSize)")
        }
        func field<Value>(_ field: KeyPath<pb_fetcher, Value?>) -> Value? {
            // Every field read here lies within the first revision, which `size` covers.
            raw.load(fromByteOffset: MemoryLayout<pb_fetcher>.offset(of: field).unsafelyUnwrapped, as: Value?.self)
        }
        guard let fetch = field(\.fetch) else {
            return refuse("its pb_fetcher.fetch is NULL")
        }
        let symbol: String
        let displayName: String
        do throws(PluginInput.Violation) {
            let text = try PluginInput.text(field(\.symbol), .symbol, limit: PluginInput.Limit.displayName) ?? ""
            symbol = try PluginInput.symbol(text)
            displayName = try PluginInput.displayName(PluginInput.text(field(\.display_name), .displayName, limit: PluginInput.Limit.displayName) ?? "", symbol: symbol)
        } catch {
            return refuse("\(error)")
        }
        let rank = pb_fetcher_rank(fetcher)
        if rank == PB_RANK_SECONDARY.rawValue, size >= UInt32(MemoryLayout<pb_fetcher>.size), fetcher.pointee.rank != 0, !fetcher.pointee.has_rank {
            warn("registered \(symbol) with pb_fetcher.rank \(fetcher.pointee.rank) but has_rank false, so the host uses PB_RANK_SECONDARY (128): set has_rank = true to declare a rank")
        }
        let staged = StagedFetcher(
            symbol: symbol, displayName: displayName, context: OpaqueContext(field(\.context)), fetch: fetch, rank: SourceRank(rank))

        let status = state.withLock { state -> pb_status in
            guard state.acceptsRegistrations else { return PB_ERR_TOO_LATE }
            if let owner = claims.owner(of: symbol) {
                state.duplicates.append(Duplicate(symbol: symbol, owner: owner))
                return PB_ERR_DUPLICATE
            }
            if state.staged.contains(where: { $0.symbol == symbol }) {
                state.duplicates.append(Duplicate(symbol: symbol, owner: path))
                return PB_ERR_DUPLICATE
            }
            state.staged.append(staged)
            return PB_OK
        }
        if status == PB_ERR_TOO_LATE {
            warn("called register_fetcher for \(symbol) after register_plugin had returned; refused with PB_ERR_TOO_LATE: register every fetcher inside register_plugin")
        }
        return status
    }

    /// Handles `config_value`: its own API base, or a value every plugin shares.
    func configValue(_ key: String) -> UnsafePointer<CChar>? {
        key == "api_base_url" ? apiBaseURL?.pointer : services.configValue(key)
    }

    /// Counts an `http_get` from its start to the call of its completion.
    func requestStarted() { requestsInFlight.add(1, ordering: .relaxed) }

    /// See ``requestStarted()``.
    func requestFinished() { requestsInFlight.subtract(1, ordering: .relaxed) }

    /// Whether the plugin is waiting on the network right now.
    var isWaitingOnNetwork: Bool { requestsInFlight.load(ordering: .relaxed) > 0 }

    /// Handles `log`, remembering the last error so a failed registration can
    /// say why.
    func log(_ level: pb_log_level, _ message: String) {
        switch level {
        case PB_LOG_DEBUG: logger.debug("\(message)")
        case PB_LOG_INFO: logger.info("\(message)")
        case PB_LOG_WARNING: logger.warning("\(message)")
        default:
            state.withLock { $0.lastError = message }
            logger.error("\(message)")
        }
    }

    /// Refuses one `register_fetcher` call, with a warning line naming the plugin.
    private func refuse(_ reason: String) -> pb_status {
        state.withLock { $0.refused.append(reason) }
        warn("called register_fetcher with a fetcher the host refused: \(reason)")
        return PB_ERR_INVALID_ARGUMENT
    }

    /// A host warning about this plugin: `PATH: NAME …`.
    private func warn(_ message: String) {
        let name = state.withLock { $0.name }
        services.logger.warning("\(path): \(name) \(message)")
    }
}

/// The C type of a fetcher's `fetch` function.
typealias FetchFunction = pb_fetch_fn

/// The fetcher prefix every plugin must have: the first revision's, which
/// ends at `fetch` (`PB_FETCHER_MIN_SIZE`, which Swift cannot import).
/// `rank` and `has_rank` after it are optional.
let minimumFetcherSize = UInt32(MemoryLayout<pb_fetcher>.offset(of: \pb_fetcher.fetch).unsafelyUnwrapped + MemoryLayout<pb_fetch_fn?>.size)
