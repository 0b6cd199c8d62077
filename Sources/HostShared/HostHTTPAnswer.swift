import HostHTTPABI

/// What `libHostHTTP.so` answers for one GET: the one Swift form of a
/// `host_http_response`, which the library writes and the host reads.
///
/// Both sides compile this same source, so they cannot disagree on what a
/// field means; only the C struct passes between them at run time.
package struct HostHTTPAnswer: Sendable, Equatable {
    /// A response, whatever its status, or why none arrived.
    package enum Reply: Sendable, Equatable {
        /// A response arrived.
        case response(status: Int, body: [UInt8])
        /// None arrived: a one-line reason, and a `HOST_HTTP_FAILURE_*` kind.
        case failure(String, kind: Int32)
    }

    /// The response or the failure.
    package var reply: Reply
    /// A 3xx response's `Location`, as the server sent it.
    package var location: String?
    /// A 429 or 5xx response's `Retry-After`, as the server sent it.
    package var retryAfter: String?

    /// Creates an answer.
    /// - Parameters:
    ///   - reply: The response or the failure.
    ///   - location: A 3xx response's `Location`.
    ///   - retryAfter: A 429 or 5xx response's `Retry-After`.
    package init(reply: Reply, location: String? = nil, retryAfter: String? = nil) {
        self.reply = reply
        self.location = location
        self.retryAfter = retryAfter
    }

    /// A failure of `kind`, a `HOST_HTTP_FAILURE_*` value.
    package static func failure(_ reason: String, kind: Int32) -> HostHTTPAnswer {
        HostHTTPAnswer(reply: .failure(reason, kind: kind))
    }

    /// Copies a response that is valid only during its completion call: the
    /// host's side.
    /// - Parameter pointer: What the library passed; NULL, or a struct
    ///   smaller than this side's, is answered as a failure that says so.
    package init(reading pointer: UnsafePointer<host_http_response>?) {
        guard let pointer else {
            self = .failure("the HTTP client answered without a response", kind: Int32(HOST_HTTP_FAILURE_OTHER))
            return
        }
        // Fields past the sender's `struct_size` are not there to read.
        guard pointer.pointee.struct_size >= MemoryLayout<host_http_response>.size else {
            let reason = "the HTTP client answered with a \(pointer.pointee.struct_size)-byte response; rebuild it with `swift build`"
            self = .failure(reason, kind: Int32(HOST_HTTP_FAILURE_OTHER))
            return
        }
        let response = pointer.pointee
        if let error = response.error {
            self = .failure(String(cString: error), kind: response.failure_kind)
            return
        }
        let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
        self.init(
            reply: .response(status: Int(response.status), body: body), location: response.location.map { String(cString: $0) },
            retryAfter: response.retry_after.map { String(cString: $0) })
    }

    /// Calls `completion` with this answer as a `host_http_response` that
    /// lives only for the call: the library's side.
    /// - Parameters:
    ///   - completion: The host's completion.
    ///   - context: The host's `request_context`, handed back untouched.
    package func send(to completion: host_http_completion_fn, context: UnsafeMutableRawPointer?) {
        let structSize = UInt32(MemoryLayout<host_http_response>.size)
        switch reply {
        case .response(let status, let body):
            body.withUnsafeBufferPointer { bytes in
                withOptionalCString(location) { location in
                    withOptionalCString(retryAfter) { retryAfter in
                        var response = host_http_response(
                            struct_size: structSize, status: Int32(clamping: status), body: bytes.baseAddress, body_length: bytes.count,
                            location: location, error: nil, failure_kind: Int32(HOST_HTTP_FAILURE_NONE), retry_after: retryAfter)
                        completion(context, &response)
                    }
                }
            }
        case .failure(let reason, let kind):
            reason.withCString { reason in
                var response = host_http_response(
                    struct_size: structSize, status: 0, body: nil, body_length: 0, location: nil, error: reason, failure_kind: kind,
                    retry_after: nil)
                completion(context, &response)
            }
        }
    }

    private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
