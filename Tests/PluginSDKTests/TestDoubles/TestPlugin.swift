import Foundation
import PluginABI
import PluginSDK

/// The one plugin this test process exports. The SDK keeps one descriptor
/// per process, as a plugin library has, so every test registers this same
/// plugin, and the host's configuration decides what it offers: its
/// `symbols` value is a JSON array of the symbols to register.
enum TestPlugin {
    /// NB: `nonisolated(unsafe)` because a pointer is not `Sendable`; the
    /// descriptor is written once by the SDK and never changes after.
    nonisolated(unsafe) static let descriptor = PluginExport.descriptor(
        name: "TestPlugin", version: "1.0.0", defaultAPIBaseURL: "https://api.example.com", rank: .primary
    ) { services in
        let symbols = try JSONDecoder().decode([String].self, from: Data((services.configValue(forKey: "symbols") ?? "[]").utf8))
        return symbols.map(TimeoutEchoFetcher.init)
    }.assumingMemoryBound(to: pb_plugin_descriptor.self)

    /// Calls the descriptor's `register_plugin` with `host`'s table, as a host does.
    static func register(with host: RecordingHost) -> pb_status {
        descriptor.pointee.register_plugin(host.table)
    }
}

/// A fetcher whose amount is the timeout it was given, in milliseconds (0
/// for none), so a test can see what the SDK made of a `timeout_ms`.
struct TimeoutEchoFetcher: PriceFetcher {
    let symbol: String

    func price(in currency: String, timeout: Duration?) async throws -> Price {
        let milliseconds = timeout.map { $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 } ?? 0
        return Price(base: symbol, currency: currency, amount: try DecimalAmount("\(milliseconds)"))
    }
}
