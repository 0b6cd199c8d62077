import PluginBoundary
import PluginABI
import Testing

/// The host answers a plugin's `http_get` with the header's
/// `pb_http_response_arrived` and `pb_http_response_failed`, and a plugin
/// checks what it gets with `pb_http_response_outcome`: the same source on
/// both sides of the boundary.
@Suite("Answering a plugin's http_get")
struct HTTPCompletionTests {
    @Test("A response reads back as arrived, with its status and body")
    func responseArrives() {
        let received = Received()
        HTTPCompletion.respond(readResponse, Unmanaged.passUnretained(received).toOpaque(), status: 200, body: Array("{}".utf8))
        #expect(received.outcome == PB_HTTP_ARRIVED)
        #expect(received.status == 200)
        #expect(received.body == Array("{}".utf8))
        #expect(received.error == nil)
    }

    @Test("An empty body is a response, not a missing one")
    func emptyBodyArrives() {
        let received = Received()
        HTTPCompletion.respond(readResponse, Unmanaged.passUnretained(received).toOpaque(), status: 204, body: [])
        #expect(received.outcome == PB_HTTP_ARRIVED)
        #expect(received.status == 204)
        #expect(received.body.isEmpty)
    }

    @Test("A failure reads back as failed, with its reason and no status")
    func failureFails() {
        let received = Received()
        HTTPCompletion.fail(readResponse, Unmanaged.passUnretained(received).toOpaque(), reason: "connection refused")
        #expect(received.outcome == PB_HTTP_FAILED)
        #expect(received.status == 0)
        #expect(received.error == "connection refused")
    }

    @Test("A response a broken host could send is named for what is wrong with it")
    func brokenResponses() {
        let size = UInt32(MemoryLayout<pb_http_response>.size)
        #expect(pb_http_response_outcome(nil) == PB_HTTP_MISSING)
        var truncated = pb_http_response(struct_size: 8, status: 200, body: nil, body_length: 0, error: nil)
        #expect(pb_http_response_outcome(&truncated) == PB_HTTP_TRUNCATED)
        var noStatus = pb_http_response(struct_size: size, status: 0, body: nil, body_length: 0, error: nil)
        #expect(pb_http_response_outcome(&noStatus) == PB_HTTP_NO_STATUS)
        var noBody = pb_http_response(struct_size: size, status: 200, body: nil, body_length: 5, error: nil)
        #expect(pb_http_response_outcome(&noBody) == PB_HTTP_NO_BODY)
    }
}

/// What a plugin's completion read of one response, through the header's check.
private final class Received {
    var outcome: pb_http_outcome?
    var status: Int32 = 0
    var body: [UInt8] = []
    var error: String?
}

/// A `pb_http_completion_fn` that reads as a plugin would, into the
/// ``Received`` its context points at.
private let readResponse: pb_http_completion_fn = { context, response in
    guard let context else { return }
    let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
    received.outcome = pb_http_response_outcome(response)
    guard let response = response?.pointee else { return }
    received.status = response.status
    received.body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
    received.error = response.error.map { String(cString: $0) }
}
