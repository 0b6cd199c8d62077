import Synchronization

/// Which plugin file owns each symbol. The first committed wins.
final class SymbolClaims: Sendable {
    private let owners = Mutex<[String: String]>([:])

    func owner(of symbol: String) -> String? {
        owners.withLock { $0[symbol] }
    }

    /// Every claimed symbol with its owner's path.
    var all: [String: String] {
        owners.withLock { $0 }
    }

    /// Records `path` as the owner of `symbols`. Loading is sequential, so
    /// nothing can claim them between the check and this commit.
    func claim(_ symbols: [String], for path: String) {
        owners.withLock { owners in
            for symbol in symbols where owners[symbol] == nil { owners[symbol] = path }
        }
    }
}
