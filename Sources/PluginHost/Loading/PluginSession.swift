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
    /// What it may ask of the host, and has.
    let allowance: PluginAllowance

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
    }

    /// A symbol this plugin tried to take from an earlier one.
    struct Duplicate: Sendable, Equatable {
        let symbol: String
        let owner: String
    }

    init(path: String, name: String, services: HostServices, claims: SymbolClaims) {
        self.path = path
        self.services = services
        self.claims = claims
        var logger = services.logger
        logger[metadataKey: "plugin"] = "\(name)"
        self.logger = logger
        self.allowance = services.allowances.make(for: name)
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
    func register(_ fetcher: pb_fetcher) -> pb_status {
        guard fetcher.struct_size >= UInt32(MemoryLayout<pb_fetcher>.size) else {
            return refuse("its pb_fetcher.struct_size is \(fetcher.struct_size), expected at least \(MemoryLayout<pb_fetcher>.size)")
        }
        guard let fetch = fetcher.fetch else {
            return refuse("its pb_fetcher.fetch is NULL")
        }
        let symbol: String
        let displayName: String
        do throws(PluginInput.Violation) {
            let raw = try PluginInput.text(fetcher.symbol, .symbol, limit: PluginInput.Limit.displayName) ?? ""
            symbol = try PluginInput.symbol(raw)
            displayName = try PluginInput.displayName(PluginInput.text(fetcher.display_name, .displayName, limit: PluginInput.Limit.displayName) ?? "", symbol: symbol)
        } catch {
            return refuse("\(error)")
        }
        let staged = StagedFetcher(symbol: symbol, displayName: displayName, context: OpaqueContext(fetcher.context), fetch: fetch)

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

    /// Counts an `http_get` from its start to the call of its completion,
    /// if the plugin's allowance admits it; else warns, the first time, and
    /// returns the refusal for the plugin's completion.
    func requestStarted() -> AllowanceRefusal? {
        if let (refusal, first) = allowance.startRequest() {
            if first { services.logger.warning("plugin \(name): \(refusal)") }
            return refusal
        }
        requestsInFlight.add(1, ordering: .relaxed)
        return nil
    }

    /// See ``requestStarted()``.
    func requestFinished() {
        requestsInFlight.subtract(1, ordering: .relaxed)
        allowance.requestFinished()
    }

    /// Whether the plugin is waiting on the network right now.
    var isWaitingOnNetwork: Bool { requestsInFlight.load(ordering: .relaxed) > 0 }

    /// Handles `log`, remembering the last error so a failed registration can
    /// say why.
    func log(_ level: pb_log_level, _ message: String) {
        guard allowance.admitLogLine() else { return }
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
