#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// What every plugin is offered through `pb_host_services`, shared by all
/// plugins of one host.
///
/// This is the seam the host's composition root fills: the networking the
/// host performs for plugins, the configuration they may read, and where
/// their log lines go.
public final class HostServices: Sendable {
    /// The networking behind the `http_get` service.
    public let networking: any HostNetworking
    /// Used when a plugin asks for an HTTP timeout of 0.
    public let defaultTimeout: Duration
    /// Receives the plugins' log lines, with `plugin` metadata.
    public let logger: Logger

    /// Configuration values as C strings that live as long as the process,
    /// because `config_value` hands out pointers to them.
    private let configuration: [String: CString]
    /// The same values as Swift strings, for isolated workers.
    let configurationValues: [String: String]

    /// Creates the services.
    /// - Parameters:
    ///   - networking: Performs every plugin HTTP request.
    ///   - configuration: Values plugins read with `config_value`, e.g.
    ///     `["api_base_url": "https://api.coinbase.com"]`.
    ///   - defaultTimeout: The timeout for requests that do not name one.
    ///   - logger: Where plugin log lines go.
    public init(
        networking: any HostNetworking,
        configuration: [String: String],
        defaultTimeout: Duration = .seconds(10),
        logger: Logger
    ) {
        self.networking = networking
        self.configuration = configuration.mapValues(CString.init)
        self.configurationValues = configuration
        self.defaultTimeout = defaultTimeout
        self.logger = logger
    }

    /// The process-lifetime C string for `key`, or nil.
    func configValue(_ key: String) -> UnsafePointer<CChar>? {
        configuration[key]?.pointer
    }
}

/// A NUL-terminated copy of a string that is never freed.
///
/// Only used for the handful of configuration values a host has; the header
/// promises plugins those pointers stay valid for the life of the process.
struct CString: @unchecked Sendable {
    // @unchecked: the buffer is written once here and only read afterwards.
    let pointer: UnsafePointer<CChar>

    init(_ string: String) {
        let bytes = string.utf8CString
        let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        pointer = UnsafePointer(buffer.baseAddress.unsafelyUnwrapped)
    }
}
