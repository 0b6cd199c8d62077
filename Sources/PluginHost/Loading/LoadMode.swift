/// Where a plugin's code runs, and why it runs there.
package struct LoadMode: Sendable, Equatable, Codable {
    /// In the host's own process, or in a sandboxed worker of its own.
    package enum Place: String, Sendable, Equatable, Codable {
        /// Loaded into the host with `dlopen`: trusted code.
        case inProcess = "in-process"
        /// Loaded in a sandboxed worker process.
        case isolated
    }

    /// Where it runs.
    package let place: Place
    /// Why, in a few words: "bundled with the host", "--isolate", …
    package let reason: String

    /// Creates a mode.
    package init(_ place: Place, because reason: String) {
        self.place = place
        self.reason = reason
    }
}

/// Who decides where each plugin runs.
///
/// A plugin is hostile until someone vouches for it: the build that bundled
/// it beside the host, or a lock file that pins its digest. By default
/// (``byTrust``) a vouched plugin loads in-process and any other in a
/// sandboxed worker; the user can send everything one way.
package enum IsolationPolicy: Sendable, Equatable {
    /// Vouched plugins in-process, the rest in sandboxed workers.
    case byTrust
    /// Every plugin in a worker, because of the named switch (`--isolate`).
    case everything(because: String)
    /// Every plugin in-process, because of the named switch (`--no-isolate`).
    case nothing(because: String)

    /// The mode of one plugin.
    /// - Parameters:
    ///   - origin: Where its file was found.
    ///   - pinnedBy: The lock file that pins its digest, if one does.
    func mode(origin: PluginDiscovery.Origin, pinnedBy lock: String?) -> LoadMode {
        switch self {
        case .everything(let reason): return LoadMode(.isolated, because: reason)
        case .nothing(let reason): return LoadMode(.inProcess, because: reason)
        case .byTrust:
            if origin == .bundled { return LoadMode(.inProcess, because: "bundled with the host") }
            if let lock { return LoadMode(.inProcess, because: "pinned in \(lock)") }
            return LoadMode(.isolated, because: "not vouched for: neither bundled with the host nor pinned in a lock file")
        }
    }

    /// Whether someone vouched for a plugin: the build that bundled it
    /// beside the host, or a lock file that pins its digest. The rule
    /// ``byTrust`` places plugins by, whatever the policy.
    /// - Parameters:
    ///   - origin: Where its file was found.
    ///   - pinnedBy: The lock file that pins its digest, if one does.
    static func isVouched(origin: PluginDiscovery.Origin, pinnedBy lock: String?) -> Bool {
        origin == .bundled || lock != nil
    }

    /// Whether any plugin may run in a worker, which needs the worker options.
    package var mayIsolate: Bool {
        if case .nothing = self { false } else { true }
    }
}
