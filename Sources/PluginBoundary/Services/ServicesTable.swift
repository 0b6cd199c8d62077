import PluginABI

/// The `pb_host_services` table a plugin gets, and the C functions behind it.
///
/// The C functions cannot capture anything, so each one recovers its
/// ``PluginServices`` from `host_context`. The table and what it points at
/// are retained for the life of the process, as the header promises.
package enum ServicesTable {
    /// A table bound to `services`, allocated once and never freed.
    package static func make(for services: any PluginServices) -> UnsafePointer<pb_host_services> {
        let table = UnsafeMutablePointer<pb_host_services>.allocate(capacity: 1)
        table.initialize(
            to: pb_host_services(
                struct_size: UInt32(MemoryLayout<pb_host_services>.size),
                abi_version: PB_PLUGIN_ABI_VERSION,
                host_context: Unmanaged.passRetained(Binding(services)).toOpaque(),
                register_fetcher: registerFetcher,
                log: log,
                config_value: configValue,
                http_get: httpGet
            )
        )
        return UnsafePointer(table)
    }

    /// What `host_context` points at.
    private final class Binding: Sendable {
        let services: any PluginServices
        init(_ services: any PluginServices) { self.services = services }
    }

    private static func services(_ context: UnsafeMutableRawPointer?) -> (any PluginServices)? {
        context.map { Unmanaged<Binding>.fromOpaque($0).takeUnretainedValue().services }
    }

    private static let registerFetcher: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_fetcher>?) -> pb_status = { context, fetcher in
        guard let services = services(context), let fetcher else { return PB_ERR_INVALID_ARGUMENT }
        return services.registerFetcher(fetcher)
    }

    private static let log: @convention(c) (UnsafeMutableRawPointer?, pb_log_level, UnsafePointer<CChar>?) -> Void = { context, level, message in
        guard let services = services(context), let message else { return }
        services.log(level, PluginOutputRules.logLine(message))
    }

    private static let configValue: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>? = { context, key in
        guard let services = services(context), let key else { return nil }
        return services.configValue(String(cString: key))
    }

    private static let httpGet: @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt32, pb_http_completion_fn?, UnsafeMutableRawPointer?
    ) -> Void = { context, url, timeoutMilliseconds, completion, requestContext in
        // Without a completion there is nobody to answer; without a binding
        // there is no networking. Neither is reachable from a correct plugin.
        guard let completion else { return }
        let reply = HTTPReply(completion: completion, context: OpaqueContext(requestContext))
        guard let services = services(context) else {
            return reply.fail("http_get called with a NULL host_context")
        }
        services.httpGet(url.map { String(cString: $0) } ?? "", timeoutMilliseconds: timeoutMilliseconds, reply: reply)
    }
}
