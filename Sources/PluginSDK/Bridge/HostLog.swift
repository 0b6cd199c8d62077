internal import PluginABI

/// The host's `log` service, found in a table that may be unusable
/// otherwise, so that the reason for refusing it can still be reported.
///
/// NB: `@unchecked Sendable` for the same reason as ``HostServicesClient``.
struct HostLog: @unchecked Sendable {
    private let hostContext: UnsafeMutableRawPointer?
    private let function: @convention(c) (UnsafeMutableRawPointer?, pb_log_level, UnsafePointer<CChar>?) -> Void

    /// Reads `host_context` and `log` only if both lie inside `size` bytes.
    init?(reading raw: UnsafeRawPointer, size: Int) {
        typealias LogFunction = @convention(c) (UnsafeMutableRawPointer?, pb_log_level, UnsafePointer<CChar>?) -> Void
        guard let contextOffset = MemoryLayout<pb_host_services>.offset(of: \.host_context),
              let logOffset = MemoryLayout<pb_host_services>.offset(of: \.log),
              size >= logOffset + MemoryLayout<LogFunction?>.size,
              let function = raw.load(fromByteOffset: logOffset, as: LogFunction?.self)
        else { return nil }
        self.hostContext = raw.load(fromByteOffset: contextOffset, as: UnsafeMutableRawPointer?.self)
        self.function = function
    }

    func callAsFunction(_ level: pb_log_level, _ message: String) {
        message.singleLine.withCString { function(hostContext, level, $0) }
    }
}
