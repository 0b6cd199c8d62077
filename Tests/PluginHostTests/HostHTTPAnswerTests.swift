import HostHTTPABI
import HostShared
import Testing

/// libHostHTTP.so writes a `host_http_response` and the host reads it,
/// both through ``HostHTTPAnswer``: what one side writes, the other reads
/// back unchanged.
@Suite("What libHostHTTP.so answers the host")
struct HostHTTPAnswerTests {
    @Test("An answer reads back as it was sent", arguments: [
        HostHTTPAnswer(reply: .response(status: 200, body: Array(#"{"data":{}}"#.utf8))),
        HostHTTPAnswer(reply: .response(status: 302, body: []), location: "/v2/moved"),
        HostHTTPAnswer(reply: .response(status: 503, body: Array("busy".utf8)), retryAfter: "7"),
        .failure("timed out after 2 s", kind: Int32(HOST_HTTP_FAILURE_TIMEOUT)),
        .failure("the certificate of 127.0.0.1:8443 is not trusted", kind: Int32(HOST_HTTP_FAILURE_CERTIFICATE_UNTRUSTED)),
    ])
    func roundTrip(answer: HostHTTPAnswer) {
        let read = Box()
        answer.send(to: readAnswer, context: Unmanaged.passUnretained(read).toOpaque())
        #expect(read.answer == answer)
    }

    @Test("No response, or one smaller than the host's struct, is a failure that says so")
    func unreadable() {
        #expect(HostHTTPAnswer(reading: nil) == .failure("the HTTP client answered without a response", kind: Int32(HOST_HTTP_FAILURE_OTHER)))
        var small = host_http_response()
        small.struct_size = 16
        small.status = 200
        #expect(
            HostHTTPAnswer(reading: &small)
                == .failure("the HTTP client answered with a 16-byte response; rebuild it with `swift build`", kind: Int32(HOST_HTTP_FAILURE_OTHER)))
    }
}

/// Where ``readAnswer`` puts what it read.
private final class Box {
    var answer: HostHTTPAnswer?
}

/// A `host_http_completion_fn` that reads as the host does.
private let readAnswer: host_http_completion_fn = { context, response in
    guard let context else { return }
    Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().answer = HostHTTPAnswer(reading: response)
}
