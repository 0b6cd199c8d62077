#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PluginABI

/// ``Networking`` through the host's `http_get` service.
///
/// The request is handed to the host with a completion callback and a
/// retained box holding the continuation; the calling task suspends, and no
/// thread waits. The callback, on whatever thread the host picks, copies the
/// host-owned response and resumes the task.
struct HostNetworking: Networking {
    let table: HostServicesTable

    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
        let milliseconds = Self.milliseconds(timeout)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) in
            // Released by `httpCompletion`, which the host calls exactly once.
            let box = Unmanaged.passRetained(HTTPRequestBox(continuation)).toOpaque()
            table.httpGet(url.absoluteString, timeoutMilliseconds: milliseconds, completion: httpCompletion, requestContext: box)
        }
        return try result.get()
    }

    /// `http_get`'s `timeout_ms`: 0 for the host's default, otherwise at
    /// least 1, rounded up, capped at `UInt32.max`.
    static func milliseconds(_ timeout: Duration?) -> UInt32 {
        guard let timeout, timeout > .zero else { return 0 }
        let (seconds, attoseconds) = timeout.components
        let (fromSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return UInt32.max }
        let total = fromSeconds + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return UInt32(clamping: max(total, 1))
    }
}

/// Carries a suspended request's continuation through `request_context`.
final class HTTPRequestBox: Sendable {
    let continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>

    init(_ continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) {
        self.continuation = continuation
    }
}

/// The `pb_http_completion_fn` handed to `http_get`.
private let httpCompletion: pb_http_completion_fn = { requestContext, response in
    guard let requestContext else { return }
    let box = Unmanaged<HTTPRequestBox>.fromOpaque(requestContext).takeRetainedValue()
    box.continuation.resume(returning: HostResponse.read(response))
}

/// Copies a host-owned `pb_http_response` before the completion returns.
enum HostResponse {
    static func read(_ pointer: UnsafePointer<pb_http_response>?) -> Result<HTTPResponse, TransportError> {
        guard let pointer else {
            return .failure(TransportError(reason: "the host answered with no response"))
        }
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard size >= MemoryLayout<pb_http_response>.size else {
            return .failure(TransportError(
                reason: "the host's response is \(size) bytes, expected at least \(MemoryLayout<pb_http_response>.size)"
            ))
        }
        let response = pointer.pointee
        if let error = response.error {
            return .failure(TransportError(reason: String(cString: error)))
        }
        guard response.status > 0 else {
            return .failure(TransportError(reason: "the host reported status \(response.status) without saying why"))
        }
        var body: [UInt8] = []
        if response.body_length > 0 {
            guard let bytes = response.body else {
                return .failure(TransportError(reason: "the host reported a \(response.body_length)-byte body but sent none"))
            }
            body = Array(UnsafeBufferPointer(start: bytes, count: response.body_length))
        }
        return .success(HTTPResponse(status: Int(response.status), body: body))
    }
}
