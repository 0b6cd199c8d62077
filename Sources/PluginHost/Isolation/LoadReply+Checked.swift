import PluginBoundary
import WorkerProtocol

extension LoadReply {
    /// The reply after the checks an in-process registration gets: the same
    /// text rules and the same symbol rule, applied by ``PluginOutputRules``.
    /// In which order plugins are asked for a symbol is not decided here:
    /// the host's ``SymbolProviders`` does, whatever a worker says.
    /// - Parameter path: The plugin file as the host found it; the only file
    ///   a worker may name.
    /// - Throws: The first ``PluginOutputRules/Violation``: the worker's plugin
    ///   wrote the reply itself, and nothing in it can be believed.
    func checked(for path: String) throws(PluginOutputRules.Violation) -> LoadReply {
        switch self {
        case .refused(let error):
            return .refused(try error.checked())
        case .registrationFailed(let descriptor, let status, let lastError):
            return .registrationFailed(
                try descriptor.checked(), status: status,
                lastError: try lastError.map { text throws(PluginOutputRules.Violation) in try PluginOutputRules.text(text, .error, limit: PluginOutputRules.Limit.error) })
        case .registered(let descriptor, let registrations):
            return .registered(try descriptor.checked(), try registrations.checked(for: path))
        }
    }
}

extension LoadReply.Descriptor {
    /// The descriptor's rules: a name and version within their limits, and checked metadata.
    func checked() throws(PluginOutputRules.Violation) -> LoadReply.Descriptor {
        guard !name.isEmpty, !version.isEmpty else { throw PluginOutputRules.Violation(field: .name, rule: "or version is missing") }
        let (name, version) = try PluginOutputRules.identity(name: name, version: version)
        return LoadReply.Descriptor(name: name, version: version, metadata: try PluginOutputRules.metadata(metadata))
    }
}

extension LoadReply.Registrations {
    /// Every symbol by the header's rule and listed once, every display name
    /// and reason within its limit, and duplicates of this file's own only.
    func checked(for path: String) throws(PluginOutputRules.Violation) -> LoadReply.Registrations {
        var seen: Set<String> = []
        let fetchers = try fetchers.map { fetcher throws(PluginOutputRules.Violation) in
            let symbol = try PluginOutputRules.symbol(fetcher.symbol)
            guard seen.insert(symbol).inserted else { throw PluginOutputRules.Violation(field: .symbol, rule: "\(symbol) is listed twice") }
            return LoadReply.Fetcher(symbol: symbol, displayName: try PluginOutputRules.displayName(fetcher.displayName, symbol: symbol), rank: fetcher.rank)
        }
        let duplicates = try duplicates.map { duplicate throws(PluginOutputRules.Violation) in
            let symbol = try PluginOutputRules.symbol(duplicate.symbol)
            // A worker knows no other plugin: the only owner it can name is its own file.
            guard duplicate.owner == path else { throw PluginOutputRules.Violation(field: .symbol, rule: "\(symbol) is said to be another file's") }
            return duplicate
        }
        let refused = try refused.map { reason throws(PluginOutputRules.Violation) in try PluginOutputRules.text(reason, .error, limit: PluginOutputRules.Limit.error) }
        return LoadReply.Registrations(fetchers: fetchers, duplicates: duplicates, refused: refused)
    }
}

extension PluginImageError {
    /// Its text within the limit of an error message.
    func checked() throws(PluginOutputRules.Violation) -> PluginImageError {
        func text(_ text: String) throws(PluginOutputRules.Violation) -> String { try PluginOutputRules.text(text, .error, limit: PluginOutputRules.Limit.error) }
        switch self {
        case .notALibrary(let reason): return .notALibrary(reason: try text(reason))
        case .missingLibrary(let name, let directory): return .missingLibrary(name: try text(name), runtimeDirectory: try text(directory))
        case .incompleteDescriptor(let field):
            guard ["name", "version", "register_plugin"].contains(field) else { throw PluginOutputRules.Violation(field: .error, rule: "names no descriptor field") }
            return self
        case .invalidDescriptor(let violation): return .invalidDescriptor(PluginOutputRules.Violation(field: violation.field, rule: try text(violation.rule)))
        case .missingEntryPoint, .nullDescriptor, .badMagic, .abiMismatch, .descriptorTooSmall: return self
        }
    }
}
