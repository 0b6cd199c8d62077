import PluginBoundary

/// One plugin's API base and what it may fetch, as ``HostServices`` decided.
package struct PluginEndpoint: Sendable, Equatable {
    /// The base it is told about.
    package let base: APIBase
    /// What its `http_get` is checked against.
    package let policy: URLPolicy
    /// The user's network grant for its file, and whether it holds; nil when none applies.
    package var grant: NetworkGrant.State?

    /// Creates an endpoint.
    package init(base: APIBase, policy: URLPolicy, grant: NetworkGrant.State? = nil) {
        self.base = base
        self.policy = policy
        self.grant = grant
    }
}
