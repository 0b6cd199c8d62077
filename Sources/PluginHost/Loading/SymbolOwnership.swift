import PluginBoundary
import Synchronization

/// Which plugin file keeps each symbol: the one owner of the rule of who
/// provides what, asked by every way of learning what plugins provide (a
/// load in-process or in a worker, a scan's listing, a load on demand).
///
/// The rule, for now: the first file in search order to register a symbol
/// keeps it; a later file's registration of it is refused, with a warning.
/// Plugins are settled one at a time, in search order, so the outcome does
/// not depend on which finished first.
final class SymbolOwnership: Sendable {
    private let owners = Mutex<[String: String]>([:])

    /// No symbol is kept yet.
    init() {}

    /// The file that keeps `symbol`, when it is not `path`: what a plugin
    /// loaded in-process is told, with `PB_ERR_DUPLICATE`, as it registers.
    func owner(of symbol: String, otherThan path: String) -> String? {
        owners.withLock { $0[symbol] }.flatMap { $0 == path ? nil : $0 }
    }

    /// Settles what the file at `path` registered, in registration order:
    /// it keeps each symbol no other file keeps, and those are now its.
    /// - Parameters:
    ///   - fetchers: What it registered.
    ///   - symbol: Each one's symbol.
    ///   - path: The file, as found.
    /// - Returns: What it keeps, and what other files keep.
    func settle<Fetcher: Sendable>(_ fetchers: [Fetcher], symbol: (Fetcher) -> String, for path: String) -> Settlement<Fetcher> {
        owners.withLock { owners in
            var settlement = Settlement<Fetcher>()
            for fetcher in fetchers {
                let name = symbol(fetcher)
                if let owner = owners[name], owner != path {
                    settlement.duplicates.append(FetcherRegistrations.Duplicate(symbol: name, owner: owner))
                } else {
                    owners[name] = path
                    settlement.kept.append(fetcher)
                }
            }
            return settlement
        }
    }
}

/// What one plugin file keeps of what it registered, and the rest.
struct Settlement<Fetcher: Sendable>: Sendable {
    /// The fetchers it keeps, in registration order.
    var kept: [Fetcher] = []
    /// The symbols other files keep.
    var duplicates: [FetcherRegistrations.Duplicate] = []

    /// The warning for a symbol an earlier file keeps.
    static func warning(for duplicate: FetcherRegistrations.Duplicate) -> String {
        "symbol \(duplicate.symbol) is already provided by \(duplicate.owner); keeping that one and ignoring this plugin's"
    }

    /// The failure of a file that keeps nothing, or nil.
    /// - Parameters:
    ///   - earlier: Duplicates refused before this settlement: those its
    ///     registration was refused with, and its own repeats.
    ///   - refused: Why each invalid fetcher was refused.
    func failure(after earlier: [FetcherRegistrations.Duplicate], refused: [String]) -> PluginLoadError? {
        guard kept.isEmpty else { return nil }
        return PluginLoadError(.nothingRegistered(duplicates: (earlier + duplicates).map { "\($0.symbol) by \($0.owner)" }, refused: refused))
    }
}
