import PluginBoundary

/// One plugin's API base and what it may fetch, as ``HostServices`` decided.
package struct PluginEndpoint: Sendable, Equatable {
    /// The base it is told about.
    package let base: APIBase
    /// What its `http_get` is checked against.
    package let policy: URLPolicy
}
