#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import PluginABI

/// ``Networking`` as a plugin has it: every GET goes through the host's
/// `http_get` service.
///
/// The request is handed to the host with a completion callback and a
/// retained box holding the continuation; the calling task suspends, and no
/// thread waits. The callback, on whatever thread the host picks, copies the
/// host-owned response and resumes the task.
struct NetworkingViaHost: Networking {
    let host: HostServicesClient

    func get(_ url: URL, timeout: Duration?) async throws(TransportError) -> HTTPResponse {
        // `http_get` reads 0 as the host's default, which is what nil asks for.
        let milliseconds = timeout?.timeoutMilliseconds ?? 0
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) in
            // Released by `httpCompletion`, which the host calls exactly once.
            let box = Unmanaged.passRetained(HTTPRequestBox(continuation)).toOpaque()
            host.httpGet(url.absoluteString, timeoutMilliseconds: milliseconds, completion: httpCompletion, requestContext: box)
        }
        return try result.get()
    }

    /// Copies a host-owned `pb_http_response` before the completion returns,
    /// after the header's `pb_http_response_outcome` says what it holds.
    static func response(from pointer: UnsafePointer<pb_http_response>?) -> Result<HTTPResponse, TransportError> {
        let outcome = pb_http_response_outcome(pointer)
        guard outcome == PB_HTTP_ARRIVED || outcome == PB_HTTP_FAILED, let response = pointer?.pointee else {
            return .failure(TransportError(reason: brokenResponse(outcome, pointer)))
        }
        if outcome == PB_HTTP_FAILED, let error = response.error {
            return .failure(TransportError(reason: String(cString: error)))
        }
        let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
        return .success(HTTPResponse(status: Int(response.status), body: body))
    }

    /// Why a response that the header's check refused cannot be read.
    private static func brokenResponse(_ outcome: pb_http_outcome, _ pointer: UnsafePointer<pb_http_response>?) -> String {
        switch outcome {
        case PB_HTTP_MISSING:
            return "the host answered with no response"
        case PB_HTTP_TRUNCATED:
            let size = pointer.map { UnsafeRawPointer($0).load(as: UInt32.self) } ?? 0
            return "the host's response is \(size) bytes, expected at least \(MemoryLayout<pb_http_response>.size)"
        case PB_HTTP_NO_BODY:
            return "the host reported a \(pointer?.pointee.body_length ?? 0)-byte body but sent none"
        default:
            return "the host reported status \(pointer?.pointee.status ?? 0) without saying why"
        }
    }
}

/// Carries a suspended request's continuation through `request_context`.
private final class HTTPRequestBox: Sendable {
    let continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>

    init(_ continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) {
        self.continuation = continuation
    }
}

/// The `pb_http_completion_fn` handed to `http_get`.
private let httpCompletion: pb_http_completion_fn = { requestContext, response in
    guard let requestContext else { return }
    let box = Unmanaged<HTTPRequestBox>.fromOpaque(requestContext).takeRetainedValue()
    box.continuation.resume(returning: NetworkingViaHost.response(from: response))
}
