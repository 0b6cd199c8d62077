/// Why the host refused a plugin's `http_get` for asking too much.
///
/// Its ``description`` is the error the plugin's completion gets, a line the
/// plugin can show, and the warning the host logs the first time.
struct AllowanceViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which cap was reached.
    enum Cap: Sendable, Hashable {
        /// ``PluginAllowance/Limit/requestsOutstanding``.
        case outstanding
        /// ``PluginAllowance/Limit/requestsPerFetch``.
        case perFetch
    }

    let cap: Cap
    let plugin: String
    let requests: Int
    let fetches: Int

    init(_ cap: Cap, plugin: String, requests: Int, fetches: Int) {
        self.cap = cap
        self.plugin = plugin
        self.requests = requests
        self.fetches = fetches
    }

    var description: String {
        switch cap {
        case .outstanding:
            "refused http_get: \(plugin) already has \(PluginAllowance.Limit.requestsOutstanding) requests waiting for an answer, the most a plugin may have at once; ask again once one is answered"
        case .perFetch:
            "refused http_get: \(plugin) has made \(requests) requests for the \(fetches) \(fetches == 1 ? "fetch" : "fetches") asked of it, and a plugin may make \(PluginAllowance.Limit.requestsPerFetch) per fetch"
        }
    }
}
