import PluginBoundary
import WorkerProtocol

extension LoadReply {
    /// The reply after the checks an in-process registration gets: the same
    /// text rules and the same symbol rule, applied by ``PluginInput``.
    /// Which plugin keeps a symbol is not checked here: the host decides
    /// that (``SymbolOwnership``) whatever a worker says.
    /// - Parameter path: The plugin file as the host found it; the only file
    ///   a worker may name.
    /// - Throws: The first ``PluginInput/Violation``: the worker's plugin
    ///   wrote the reply itself, and nothing in it can be believed.
    func checked(for path: String) throws(PluginInput.Violation) -> LoadReply {
        switch self {
        case .refused(let error):
            return .refused(try error.checked())
        case .registrationFailed(let descriptor, let status, let lastError):
            return .registrationFailed(
                try descriptor.checked(), status: status,
                lastError: try lastError.map { text throws(PluginInput.Violation) in try PluginInput.text(text, .error, limit: PluginInput.Limit.error) })
        case .registered(let descriptor, let registrations):
            return .registered(try descriptor.checked(), try registrations.checked(for: path))
        }
    }
}

extension LoadReply.Descriptor {
    /// The descriptor's rules: a name and version within their limits, and checked metadata.
    func checked() throws(PluginInput.Violation) -> LoadReply.Descriptor {
        guard !name.isEmpty, !version.isEmpty else { throw PluginInput.Violation(field: .name, rule: "or version is missing") }
        let (name, version) = try PluginInput.identity(name: name, version: version)
        return LoadReply.Descriptor(name: name, version: version, metadata: try PluginInput.metadata(metadata))
    }
}

extension LoadReply.Registrations {
    /// Every symbol by the header's rule and listed once, every display name
    /// and reason within its limit, and duplicates of this file's own only.
    func checked(for path: String) throws(PluginInput.Violation) -> LoadReply.Registrations {
        var seen: Set<String> = []
        let fetchers = try fetchers.map { fetcher throws(PluginInput.Violation) in
            let symbol = try PluginInput.symbol(fetcher.symbol)
            guard seen.insert(symbol).inserted else { throw PluginInput.Violation(field: .symbol, rule: "\(symbol) is listed twice") }
            return LoadReply.Fetcher(symbol: symbol, displayName: try PluginInput.displayName(fetcher.displayName, symbol: symbol))
        }
        let duplicates = try duplicates.map { duplicate throws(PluginInput.Violation) in
            let symbol = try PluginInput.symbol(duplicate.symbol)
            // A worker knows no other plugin: the only owner it can name is its own file.
            guard duplicate.owner == path else { throw PluginInput.Violation(field: .symbol, rule: "\(symbol) is said to be another file's") }
            return duplicate
        }
        let refused = try refused.map { reason throws(PluginInput.Violation) in try PluginInput.text(reason, .error, limit: PluginInput.Limit.error) }
        return LoadReply.Registrations(fetchers: fetchers, duplicates: duplicates, refused: refused)
    }
}

extension PluginImageError {
    /// Its text within the limit of an error message.
    func checked() throws(PluginInput.Violation) -> PluginImageError {
        func text(_ text: String) throws(PluginInput.Violation) -> String { try PluginInput.text(text, .error, limit: PluginInput.Limit.error) }
        switch self {
        case .notALibrary(let reason): return .notALibrary(reason: try text(reason))
        case .incompleteDescriptor(let field):
            guard ["name", "version", "register_plugin"].contains(field) else { throw PluginInput.Violation(field: .error, rule: "names no descriptor field") }
            return self
        case .invalidDescriptor(let violation): return .invalidDescriptor(PluginInput.Violation(field: violation.field, rule: try text(violation.rule)))
        case .missingEntryPoint, .nullDescriptor, .badMagic, .abiMismatch, .descriptorTooSmall: return self
        }
    }
}
