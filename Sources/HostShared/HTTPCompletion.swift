// What both the host and libHostHTTP.so link. Each gets its own copy of this
// module, which is safe because no Swift value crosses between them: only C.

import PluginABI

/// Answers a `pb_http_completion_fn`: the host answers its plugins this way,
/// and libHostHTTP.so answers the host.
package enum HTTPCompletion {
    /// Calls `completion` with a response that is valid only during the call.
    package static func respond(
        _ completion: pb_http_completion_fn, _ context: UnsafeMutableRawPointer?, status: Int, body: [UInt8]
    ) {
        body.withUnsafeBufferPointer { bytes in
            var response = pb_http_response(
                struct_size: structSize, status: Int32(clamping: status), body: bytes.baseAddress, body_length: bytes.count, error: nil)
            completion(context, &response)
        }
    }

    /// Calls `completion` with the reason no response arrived.
    package static func fail(_ completion: pb_http_completion_fn, _ context: UnsafeMutableRawPointer?, reason: String) {
        reason.withCString { reason in
            var response = pb_http_response(struct_size: structSize, status: 0, body: nil, body_length: 0, error: reason)
            completion(context, &response)
        }
    }

    private static let structSize = UInt32(MemoryLayout<pb_http_response>.size)
}
