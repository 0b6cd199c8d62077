import PluginABI
import Synchronization

/// What one plugin registers while its `register_plugin` runs: the rules of
/// `register_fetcher`, alike for a plugin the host loads and one a worker
/// serves.
///
/// A fetcher is taken only inside the window ``open()`` and ``close()``
/// bound, only when its struct is large enough, its `fetch` is set and its
/// symbol and display name pass ``PluginOutputRules``, and only once per symbol
/// per plugin. Several plugins may provide one symbol: in which order the
/// host asks them is decided in one place, the host's `SymbolProviders`.
package final class FetcherRegistrations: Sendable {
    /// A fetcher taken during `register_plugin`.
    package struct Registration: Sendable {
        /// The ticker, checked, e.g. "ETH".
        package let symbol: String
        /// The display name, checked; the symbol when the plugin gave none.
        package let displayName: String
        /// The plugin's `context`, handed back to `fetch`.
        package let context: OpaqueContext
        /// The plugin's `fetch`.
        package let fetch: pb_fetch_fn
        /// The rank it declares (`pb_fetcher_rank`): `PB_RANK_SECONDARY` when it declares none.
        package let rank: UInt32
    }

    /// A symbol this plugin registered a second time.
    package struct Duplicate: Sendable, Equatable {
        /// The symbol.
        package let symbol: String
        /// The plugin file whose fetcher for it stays: its own.
        package let owner: String

        /// A second registration of `symbol`, whose first is `owner`'s.
        package init(symbol: String, owner: String) {
            self.symbol = symbol
            self.owner = owner
        }
    }

    /// Everything the plugin registered and tried to register.
    package struct Outcome: Sendable {
        /// The fetchers taken, in registration order.
        package var taken: [Registration] = []
        /// Symbols refused with `PB_ERR_DUPLICATE`.
        package var duplicates: [Duplicate] = []
        /// Why each `register_fetcher` call refused as invalid was refused.
        package var refused: [String] = []
        /// The last error the plugin logged, for a registration that fails.
        package var lastError: String?
    }

    /// The plugin file, as found.
    private let path: String
    /// The descriptor's name.
    private let name: String
    /// Receives each warning line about a registration.
    private let warn: @Sendable (String) -> Void
    private let state = Mutex(State())

    private struct State {
        var open = false
        var outcome = Outcome()
    }

    /// A window for the plugin `name`, from `path`.
    /// - Parameter warn: Receives one line per refused registration,
    ///   `PATH: NAME called register_fetcher …`, for the host's log.
    package init(path: String, name: String, warn: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.name = name
        self.warn = warn
    }

    /// Opens the window: `register_plugin` is about to run.
    package func open() {
        state.withLock { $0.open = true }
    }

    /// Closes the window: `register_plugin` returned.
    package func close() {
        state.withLock { $0.open = false }
    }

    /// What the plugin registered and tried to register.
    package var outcome: Outcome {
        state.withLock { $0.outcome }
    }

    /// Remembers the last error the plugin logged, so a failed registration can say why.
    package func noteError(_ message: String) {
        state.withLock { $0.outcome.lastError = message }
    }

    /// Handles one `register_fetcher` call.
    ///
    /// Reads only what the fetcher's `struct_size` covers: a plugin built
    /// before `rank` has a smaller struct, so `pointee` would read past it.
    /// - Parameter fetcher: The plugin's struct, read during the call only.
    /// - Returns: `PB_OK`, or why the fetcher was refused; `PB_ERR_DUPLICATE`
    ///   only for a symbol this plugin registered already, since several
    ///   plugins may provide one symbol.
    package func register(_ fetcher: UnsafePointer<pb_fetcher>) -> pb_status {
        // Only the size field is read before the size is checked.
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
        do throws(PluginOutputRules.Violation) {
            let raw = try PluginOutputRules.text(field(\.symbol), .symbol, limit: PluginOutputRules.Limit.displayName) ?? ""
            symbol = try PluginOutputRules.symbol(raw)
            displayName = try PluginOutputRules.displayName(
                PluginOutputRules.text(field(\.display_name), .displayName, limit: PluginOutputRules.Limit.displayName) ?? "", symbol: symbol)
        } catch {
            return refuse("\(error)")
        }
        // pb_fetcher_rank's reading, by bytes: a plugin's has_rank may hold
        // any byte, and a Swift Bool read from one that is not 0 or 1 is undefined.
        let covered = size >= rankedFetcherSize
        let declared = covered ? raw.load(fromByteOffset: MemoryLayout<pb_fetcher>.offset(of: \.rank).unsafelyUnwrapped, as: UInt32.self) : 0
        let hasRank = covered && raw.load(fromByteOffset: MemoryLayout<pb_fetcher>.offset(of: \.has_rank).unsafelyUnwrapped, as: UInt8.self) != 0
        let rank = hasRank ? declared : PB_RANK_SECONDARY.rawValue
        if covered, !hasRank, declared != 0 {
            warn("\(path): \(name) registered \(symbol) with pb_fetcher.rank \(declared) but has_rank false, so the host uses PB_RANK_SECONDARY (128): set has_rank = true to declare a rank")
        }
        let registration = Registration(
            symbol: symbol, displayName: displayName, context: OpaqueContext(field(\.context)), fetch: fetch, rank: rank)
        let status = state.withLock { state -> pb_status in
            guard state.open else { return PB_ERR_TOO_LATE }
            if state.outcome.taken.contains(where: { $0.symbol == symbol }) {
                state.outcome.duplicates.append(Duplicate(symbol: symbol, owner: path))
                return PB_ERR_DUPLICATE
            }
            state.outcome.taken.append(registration)
            return PB_OK
        }
        if status == PB_ERR_TOO_LATE {
            warn("\(path): \(name) called register_fetcher for \(symbol) after register_plugin had returned; refused with PB_ERR_TOO_LATE: register every fetcher inside register_plugin")
        }
        return status
    }

    /// Refuses one `register_fetcher` call, with a warning line naming the plugin.
    private func refuse(_ reason: String) -> pb_status {
        state.withLock { $0.outcome.refused.append(reason) }
        warn("\(path): \(name) called register_fetcher with a fetcher the host refused: \(reason)")
        return PB_ERR_INVALID_ARGUMENT
    }
}

/// The fetcher prefix every plugin must have: the first revision's, which
/// ends at `fetch` (`PB_FETCHER_MIN_SIZE`, which Swift cannot import).
/// `rank` and `has_rank` after it are optional.
package let minimumFetcherSize = UInt32(MemoryLayout<pb_fetcher>.offset(of: \pb_fetcher.fetch).unsafelyUnwrapped + MemoryLayout<pb_fetch_fn?>.size)

/// The fetcher with the minor revision's `rank` and `has_rank`: a
/// `struct_size` this large declares a rank when `has_rank` is set.
package let rankedFetcherSize = UInt32(MemoryLayout<pb_fetcher>.offset(of: \pb_fetcher.has_rank).unsafelyUnwrapped + MemoryLayout<Bool>.size)
