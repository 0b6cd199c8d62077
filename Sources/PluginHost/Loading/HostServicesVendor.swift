import FoundationEssentials
import HostShared
import PluginABI

/// What the host vends each plugin: its own `pb_host_services` table, and
/// the C functions behind it.
///
/// The C functions cannot capture anything, so each one recovers its
/// ``PluginSession`` from `host_context`. The table and the session are
/// retained for the life of the process, as the header promises.
enum HostServicesVendor {
    /// A table bound to `session`, allocated once and never freed.
    static func make(for session: PluginSession) -> UnsafePointer<pb_host_services> {
        let table = UnsafeMutablePointer<pb_host_services>.allocate(capacity: 1)
        table.initialize(
            to: pb_host_services(
                struct_size: UInt32(MemoryLayout<pb_host_services>.size),
                abi_version: PB_PLUGIN_ABI_VERSION,
                host_context: Unmanaged.passRetained(session).toOpaque(),
                register_fetcher: registerFetcher,
                log: log,
                config_value: configValue,
                http_get: httpGet
            )
        )
        return UnsafePointer(table)
    }

    private static func session(_ context: UnsafeMutableRawPointer?) -> PluginSession? {
        context.map { Unmanaged<PluginSession>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let registerFetcher: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_fetcher>?) -> pb_status = { context, fetcher in
        guard let session = session(context), let fetcher else { return PB_ERR_INVALID_ARGUMENT }
        return session.register(fetcher.pointee)
    }

    private static let log: @convention(c) (UnsafeMutableRawPointer?, pb_log_level, UnsafePointer<CChar>?) -> Void = { context, level, message in
        guard let session = session(context), let message else { return }
        session.log(level, PluginInput.logLine(message))
    }

    private static let configValue: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>? = { context, key in
        guard let session = session(context), let key else { return nil }
        return session.services.configValue(String(cString: key))
    }

    private static let httpGet: @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt32, pb_http_completion_fn?, UnsafeMutableRawPointer?
    ) -> Void = { context, url, timeoutMilliseconds, completion, requestContext in
        // Without a completion there is nobody to answer; without a session
        // there is no networking. Neither is reachable from a correct plugin.
        guard let completion else { return }
        let reply = HTTPReply(completion: completion, context: OpaqueContext(requestContext))
        guard let session = session(context) else {
            return reply.send(.failure("http_get called with a NULL host_context"))
        }
        let text = url.map { String(cString: $0) } ?? ""
        let services = session.services
        let timeout = timeoutMilliseconds == 0 ? services.defaultTimeout : .milliseconds(Int64(timeoutMilliseconds))
        let plugin = session.name
        session.logger.debug("GET \(PluginInput.echoed(text))")
        if let refusal = session.requestStarted() { return reply.send(.failure(refusal.description)) }
        Task {
            let outcome = await services.get(text, timeout: timeout, for: plugin)
            session.requestFinished()
            reply.send(outcome)
        }
    }
}

/// One pending `http_get` answer.
private struct HTTPReply: Sendable {
    let completion: pb_http_completion_fn
    let context: OpaqueContext

    /// Calls the plugin's completion with a response that lives only for the
    /// call, on a thread of its own: the completion is plugin code, and may block.
    func send(_ outcome: HTTPOutcome) {
        let deliver = { @Sendable [self] in
            switch outcome {
            case .response(let status, let body): HTTPCompletion.respond(completion, context.pointer, status: status, body: body)
            case .failure(let reason): HTTPCompletion.fail(completion, context.pointer, reason: reason)
            }
        }
        do {
            try PluginCallThread.start(deliver)
        } catch {
            // The header promises exactly one call; late on a host thread beats never.
            deliver()
        }
    }
}
