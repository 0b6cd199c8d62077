import PluginABI

/// What one plugin's `pb_host_services` calls reach.
///
/// The host implements it for a plugin it loads itself, a worker for the
/// plugin it serves; ``ServicesTable`` turns either into the C table the
/// plugin gets. Every method may be called from any of the plugin's threads,
/// at any time for the rest of the process, and must not block on plugin
/// code.
package protocol PluginServices: AnyObject, Sendable {
    /// `register_fetcher`: takes or refuses one fetcher.
    /// - Parameter fetcher: The plugin's struct, read during the call only.
    /// - Returns: The status the plugin gets.
    func registerFetcher(_ fetcher: UnsafePointer<pb_fetcher>) -> pb_status

    /// `log`: one line from the plugin, already cut and repaired by ``PluginOutputRules/logLine(_:)-(UnsafePointer<CChar>)``.
    func log(_ level: pb_log_level, _ message: String)

    /// `config_value`: a value that lives as long as the process, or nil.
    func configValue(_ key: String) -> UnsafePointer<CChar>?

    /// `http_get`: starts a request and answers `reply` exactly once, later.
    /// - Parameters:
    ///   - url: The URL as the plugin wrote it; nothing is checked yet.
    ///   - timeoutMilliseconds: The plugin's limit; 0 asks for the default.
    ///   - reply: Where the answer goes.
    func httpGet(_ url: String, timeoutMilliseconds: UInt32, reply: HTTPReply)
}
