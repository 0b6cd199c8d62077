#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the host offers a plugin's fetchers: networking, logging and
/// configuration.
///
/// The SDK builds it from the host's `pb_host_services` table and hands it
/// to your ``PluginExport/FetcherFactory``. Pass its members to your
/// fetchers' initializers; every member may be used from any task, for the
/// life of the process.
public struct PluginServices: Sendable {
    /// Performs HTTP GETs through the host. Plugins never open sockets
    /// themselves; this is the only way out.
    public let networking: any Networking

    /// Writes lines to the host's log, attributed to this plugin.
    public let logger: PluginLogger

    /// The API root the host was configured with: its `api_base_url` value,
    /// e.g. `https://api.coinbase.com`, `http://127.0.0.1:8080` or
    /// `file:///…/Fixtures/coinbase`.
    public let apiBaseURL: URL

    private let host: HostServicesClient

    init(host: HostServicesClient, apiBaseURL: URL) {
        self.host = host
        self.networking = NetworkingViaHost(host: host)
        self.logger = PluginLogger(host: host)
        self.apiBaseURL = apiBaseURL
    }

    /// Reads one of the host's configuration values.
    ///
    /// - Parameter key: The key; the host sets `"api_base_url"` and `"host_abi_version"`.
    /// - Returns: The value, or `nil` when the host does not set `key`.
    public func configValue(forKey key: String) -> String? {
        host.configValue(forKey: key)
    }
}
