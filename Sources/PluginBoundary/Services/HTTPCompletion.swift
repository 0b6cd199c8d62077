import PluginABI

/// Answers a plugin's `pb_http_completion_fn`, in the host and in a
/// worker alike, with the header's `pb_http_response_arrived` and
/// `pb_http_response_failed`: the same code that builds the struct a plugin
/// checks with `pb_http_response_outcome`.
package enum HTTPCompletion {
    /// Calls `completion` with a response that is valid only during the call.
    /// - Parameters:
    ///   - completion: The plugin's completion.
    ///   - context: The plugin's `request_context`, handed back untouched.
    ///   - status: The HTTP status; positive.
    ///   - body: The body, lent for the call.
    package static func respond(
        _ completion: pb_http_completion_fn, _ context: UnsafeMutableRawPointer?, status: Int, body: [UInt8]
    ) {
        body.withUnsafeBufferPointer { bytes in
            var response = pb_http_response_arrived(Int32(clamping: status), bytes.baseAddress, bytes.count)
            completion(context, &response)
        }
    }

    /// Calls `completion` with the reason no response arrived.
    /// - Parameters:
    ///   - completion: The plugin's completion.
    ///   - context: The plugin's `request_context`, handed back untouched.
    ///   - reason: One line, lent for the call.
    package static func fail(_ completion: pb_http_completion_fn, _ context: UnsafeMutableRawPointer?, reason: String) {
        reason.withCString { reason in
            var response = pb_http_response_failed(reason)
            completion(context, &response)
        }
    }
}
