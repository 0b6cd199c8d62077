import PluginABI
import Synchronization

/// What one plugin registers while its `register_plugin` runs: the rules of
/// `register_fetcher`, alike for a plugin the host loads and one a worker
/// serves.
///
/// A fetcher is taken only inside the window ``open()`` and ``close()``
/// bound, only when its struct is large enough, its `fetch` is set and its
/// symbol and display name pass ``PluginOutputRules``, and only once per symbol
/// per plugin. Which of two plugins keeps a symbol both register is not
/// decided here: the host decides, in one place, and a worker leaves it to
/// its host.
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
    }

    /// A symbol this plugin registered that another plugin keeps.
    package struct Duplicate: Sendable, Equatable {
        /// The symbol.
        package let symbol: String
        /// The plugin file that keeps it.
        package let owner: String

        /// A duplicate of `symbol`, which `owner` keeps.
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
    /// - Parameters:
    ///   - fetcher: The plugin's struct, read during the call only.
    ///   - owner: The plugin file that already keeps a symbol, where the
    ///     caller decides that now; nil for a worker, whose host decides.
    /// - Returns: `PB_OK`, or why the fetcher was refused.
    package func register(_ fetcher: UnsafePointer<pb_fetcher>, owner: (String) -> String? = { _ in nil }) -> pb_status {
        // Only the size field is read before the size is checked.
        let size = UnsafeRawPointer(fetcher).load(as: UInt32.self)
        guard size >= UInt32(MemoryLayout<pb_fetcher>.size) else {
            return refuse("its pb_fetcher.struct_size is \(size), expected at least \(MemoryLayout<pb_fetcher>.size)")
        }
        let fetcher = fetcher.pointee
        guard let fetch = fetcher.fetch else {
            return refuse("its pb_fetcher.fetch is NULL")
        }
        let symbol: String
        let displayName: String
        do throws(PluginOutputRules.Violation) {
            let raw = try PluginOutputRules.text(fetcher.symbol, .symbol, limit: PluginOutputRules.Limit.displayName) ?? ""
            symbol = try PluginOutputRules.symbol(raw)
            displayName = try PluginOutputRules.displayName(
                PluginOutputRules.text(fetcher.display_name, .displayName, limit: PluginOutputRules.Limit.displayName) ?? "", symbol: symbol)
        } catch {
            return refuse("\(error)")
        }
        let registration = Registration(symbol: symbol, displayName: displayName, context: OpaqueContext(fetcher.context), fetch: fetch)
        let keeper = owner(symbol)
        let status = state.withLock { state -> pb_status in
            guard state.open else { return PB_ERR_TOO_LATE }
            if let keeper {
                state.outcome.duplicates.append(Duplicate(symbol: symbol, owner: keeper))
                return PB_ERR_DUPLICATE
            }
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
