internal import PluginABI

/// What a plugin sees of the host: a validated copy of its
/// `pb_host_services` table, and calls through it.
///
/// NB: `@unchecked Sendable` because it holds `host_context`, a raw pointer.
/// The header makes it safe: the host owns the context for the life of the
/// process, and its service functions are thread-safe. This type only
/// passes the pointer back to them and never dereferences it.
struct HostServicesClient: @unchecked Sendable {
    private let hostContext: UnsafeMutableRawPointer?
    private let registerFetcherFunction: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_fetcher>?) -> pb_status
    private let logFunction: @convention(c) (UnsafeMutableRawPointer?, pb_log_level, UnsafePointer<CChar>?) -> Void
    private let configValueFunction: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?
    private let httpGetFunction: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt32, pb_http_completion_fn?, UnsafeMutableRawPointer?) -> Void

    /// Why a table was refused, and what `register_plugin` answers.
    struct Rejection: Error {
        let status: pb_status
        let message: String
        /// The host's `log`, when the table was readable far enough to find it.
        let log: HostLog?
    }

    /// Reads `services` only as far as its `struct_size` allows, and
    /// refuses tables that are too small, of another ABI revision, or
    /// missing a function.
    init(validating services: UnsafePointer<pb_host_services>) throws(Rejection) {
        let raw = UnsafeRawPointer(services)
        let size = Int(raw.load(as: UInt32.self))
        let log = HostLog(reading: raw, size: size)
        let required = MemoryLayout<pb_host_services>.size
        guard size >= required else {
            throw Rejection(
                status: PB_ERR_INVALID_ARGUMENT,
                message: "The host's services table is \(size) bytes, but this plugin needs \(required): rebuild the host against the current patchbay_plugin.h",
                log: log
            )
        }
        let table = services.pointee
        guard table.abi_version == PB_PLUGIN_ABI_VERSION else {
            throw Rejection(
                status: PB_ERR_INVALID_ARGUMENT,
                message: "The host speaks plugin ABI \(table.abi_version), but this plugin was built for ABI \(PB_PLUGIN_ABI_VERSION): rebuild the plugin against the host's patchbay_plugin.h",
                log: log
            )
        }
        guard let registerFetcher = table.register_fetcher,
              let logFunction = table.log,
              let configValue = table.config_value,
              let httpGet = table.http_get
        else {
            let missing = [
                table.register_fetcher == nil ? "register_fetcher" : nil,
                table.log == nil ? "log" : nil,
                table.config_value == nil ? "config_value" : nil,
                table.http_get == nil ? "http_get" : nil,
            ].compactMap { $0 }
            throw Rejection(
                status: PB_ERR_INVALID_ARGUMENT,
                message: "The host's services table has no \(missing.joined(separator: ", ")): the host must fill in every service",
                log: log
            )
        }
        self.hostContext = table.host_context
        self.registerFetcherFunction = registerFetcher
        self.logFunction = logFunction
        self.configValueFunction = configValue
        self.httpGetFunction = httpGet
    }

    func registerFetcher(_ fetcher: UnsafePointer<pb_fetcher>) -> pb_status {
        registerFetcherFunction(hostContext, fetcher)
    }

    func log(_ level: pb_log_level, _ message: String) {
        message.singleLine.withCString { logFunction(hostContext, level, $0) }
    }

    func configValue(forKey key: String) -> String? {
        key.withCString { configValueFunction(hostContext, $0) }.map { String(cString: $0) }
    }

    func httpGet(
        _ url: String,
        timeoutMilliseconds: UInt32,
        completion: pb_http_completion_fn,
        requestContext: UnsafeMutableRawPointer
    ) {
        url.withCString { httpGetFunction(hostContext, $0, timeoutMilliseconds, completion, requestContext) }
    }
}
