/// What happened to one plugin file.
public struct PluginReport: Sendable, Equatable, Codable {
    /// Whether the plugin's fetchers are available.
    public enum Status: String, Sendable, Codable {
        /// Loaded and registered at least one fetcher.
        case loaded
        /// Refused or broken; see ``PluginReport/error``.
        case failed
    }

    /// The descriptor's name, or the file name when the descriptor could not be read.
    public let name: String
    /// The descriptor's version, or nil when it could not be read.
    public let version: String?
    /// The file, as found in the plugins directory.
    public let path: String
    /// Whether it loaded.
    public let status: Status
    /// The symbols it provides, in registration order.
    public let fetchers: [String]
    /// Why it failed, for a failed plugin.
    public let error: String?
    /// Problems that did not stop it loading, e.g. a symbol another plugin owns.
    public let warnings: [String]
    /// The URL prefixes its `http_get` may fetch under: the API base, then
    /// the user's grants. Filled in by ``Host``; empty from a bare loader.
    public internal(set) var allowedURLs: [String] = []
    /// What the descriptor says beyond name and version, or nil when it
    /// could not be read.
    public internal(set) var metadata: PluginMetadata?
    /// What confined its code: the worker sandbox under `--isolate`, else
    /// ``SandboxReport/unconfined``.
    public internal(set) var sandbox: SandboxReport = .unconfined
}
