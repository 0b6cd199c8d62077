import Foundation
import PluginABI
import Synchronization

/// A host as a plugin meets it: a real `pb_host_services` table whose
/// functions record what the SDK calls them with, and answer every
/// `http_get` at once, through the header's `pb_http_response_arrived`.
///
/// Each test makes its own, so tests that run in parallel never share one.
/// The table and the host are leaked, as a real host's are: a plugin may
/// keep the table for the life of the process.
///
/// NB: `@unchecked Sendable` for `table`, written once in `init` and only
/// read after; everything that changes is under `state`'s lock.
final class RecordingHost: @unchecked Sendable {
    /// A fetcher the SDK registered.
    struct Registration: @unchecked Sendable {
        // @unchecked: `context` is the SDK's, only handed back to `fetch`.
        let symbol: String
        let displayName: String
        let context: UnsafeMutableRawPointer?
        let fetch: pb_fetch_fn
        /// As the host reads it, `pb_fetcher_rank`.
        let rank: UInt32
    }

    private struct State {
        var registrations: [Registration] = []
        var logLines: [String] = []
        var timeouts: [UInt32] = []
    }

    private let configuration: [String: ConfigurationValue]
    private let state = Mutex(State())
    /// This host's services table, as `register_plugin` receives it.
    let table: UnsafePointer<pb_host_services>

    /// Creates a host whose `config_value` answers `configuration`.
    init(configuration: [String: String] = ["api_base_url": "https://api.example.com"]) {
        self.configuration = configuration.mapValues(ConfigurationValue.init)
        let table = UnsafeMutablePointer<pb_host_services>.allocate(capacity: 1)
        table.initialize(to: pb_host_services(
            struct_size: UInt32(MemoryLayout<pb_host_services>.size), abi_version: PB_PLUGIN_ABI_VERSION, host_context: nil,
            register_fetcher: { context, fetcher in RecordingHost.from(context).register(fetcher) },
            log: { context, _, message in RecordingHost.from(context).record(message) },
            config_value: { context, key in RecordingHost.from(context).value(key) },
            http_get: { context, _, timeout, completion, requestContext in
                RecordingHost.from(context).state.withLock { $0.timeouts.append(timeout) }
                var response = pb_http_response_arrived(200, nil, 0)
                completion?(requestContext, &response)
            }))
        self.table = UnsafePointer(table)
        table.pointee.host_context = Unmanaged.passRetained(self).toOpaque()
    }

    /// The fetchers registered, in order.
    var registrations: [Registration] { state.withLock { $0.registrations } }
    /// Every line logged, in order.
    var logLines: [String] { state.withLock { $0.logLines } }
    /// The `timeout_ms` of every `http_get`, in order.
    var timeouts: [UInt32] { state.withLock { $0.timeouts } }

    private static func from(_ context: UnsafeMutableRawPointer?) -> RecordingHost {
        // The SDK passes back the context this host put in its table.
        Unmanaged<RecordingHost>.fromOpaque(context.unsafelyUnwrapped).takeUnretainedValue()
    }

    private func register(_ fetcher: UnsafePointer<pb_fetcher>?) -> pb_status {
        guard let pointer = fetcher, let fetcher = fetcher?.pointee, let symbol = fetcher.symbol, let displayName = fetcher.display_name, let fetch = fetcher.fetch
        else {
            return PB_ERR_INVALID_ARGUMENT
        }
        let registration = Registration(
            symbol: String(cString: symbol), displayName: String(cString: displayName), context: fetcher.context, fetch: fetch,
            rank: pb_fetcher_rank(pointer))
        state.withLock { $0.registrations.append(registration) }
        return PB_OK
    }

    private func record(_ message: UnsafePointer<CChar>?) {
        let line = message.map { String(cString: $0) } ?? ""
        state.withLock { $0.logLines.append(line) }
    }

    private func value(_ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
        key.flatMap { configuration[String(cString: $0)]?.pointer }
    }

    /// A NUL-terminated copy of a string that is never freed, as
    /// `config_value` promises.
    private struct ConfigurationValue: @unchecked Sendable {
        // @unchecked: written once here and only read afterwards.
        let pointer: UnsafePointer<CChar>

        init(_ string: String) {
            pointer = UnsafePointer(strdup(string).unsafelyUnwrapped)
        }
    }
}
