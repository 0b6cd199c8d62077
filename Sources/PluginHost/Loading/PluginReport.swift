import PluginBoundary
import WorkerProtocol

/// What happened to one plugin file.
package struct PluginReport: Sendable, Equatable, Codable {
    /// Whether the plugin's fetchers are available.
    package enum Status: String, Sendable, Codable {
        /// Loaded and registered at least one fetcher.
        case loaded
        /// Refused or broken; see ``PluginReport/error``.
        case failed
    }

    /// The descriptor's name, or the file name when the descriptor could not be read.
    package let name: String
    /// The descriptor's version, or nil when it could not be read.
    package let version: String?
    /// The file, as found in the plugins directory.
    package let path: String
    /// Whether it loaded.
    package let status: Status
    /// The symbols it provides, in registration order.
    package let fetchers: [String]
    /// Why it failed, for a failed plugin.
    package let error: String?
    /// Problems that did not stop it loading, e.g. a symbol another plugin owns.
    package let warnings: [String]
    /// The URL prefixes its `http_get` may fetch under: its API base, then
    /// the user's grants. Filled in by ``Host``; empty from a bare loader.
    package internal(set) var allowedURLs: [String] = []
    /// The API base it is told about, and who chose it; nil when the host
    /// could not read its descriptor.
    package internal(set) var apiBase: APIBase?
    /// The base it declares and may not fetch under, because nobody
    /// vouched for it; nil when there is none.
    package internal(set) var withheldAPIBaseURL: String?
    /// The user's network grant for the file (`host allow`), and whether it still holds.
    package internal(set) var networkGrant: NetworkGrant.State?
    /// What the descriptor says beyond name and version, or nil when it
    /// could not be read.
    package internal(set) var metadata: PluginMetadata?
    /// What confined its code: the worker sandbox under `--isolate`, else
    /// `SandboxReport.unconfined` (WorkerProtocol).
    package internal(set) var sandbox: SandboxReport = .unconfined
    /// Where its code runs when one of its fetchers is used, and why; nil
    /// from a bare loader, which has no say.
    package internal(set) var placement: Placement?
    /// Whether this report comes from the scan cache rather than from
    /// loading or scanning the file in this run.
    package internal(set) var cached = false
    /// The first system call its worker's sandbox refused while it loaded,
    /// as the worker reported it; nil in-process, or when none was.
    package internal(set) var refusedSystemCall: RefusedSystemCall?
}

extension PluginReport {
    /// Records a plugin's API base and what it may fetch.
    mutating func record(_ endpoint: PluginEndpoint) {
        networkGrant = endpoint.grant
        apiBase = endpoint.base
        allowedURLs = endpoint.policy.allowedURLs
        withheldAPIBaseURL = endpoint.policy.withheld?.base.description
    }
}
