import Foundation
import PluginABI
import Testing

@testable import PluginSDK

/// A plugin's networking: every GET through the host's `http_get`, with the
/// header's rules for `timeout_ms` and for reading the response.
@Suite("Networking through the host")
struct NetworkingViaHostTests {
    @Test("A timeout reaches http_get as the header's timeout_ms, with the cases the host is held to")
    func timeouts() async throws {
        let host = RecordingHost()
        let networking = NetworkingViaHost(host: try HostServicesClient(validating: host.table))
        let url = try #require(URL(string: "https://api.example.com/v2/prices/ETH-USD/spot"))
        let cases = try ABIRuleFixture.load().timeouts
        for timeout in cases {
            _ = try await networking.get(url, timeout: timeout.duration)
        }
        _ = try await networking.get(url, timeout: nil)
        #expect(host.timeouts == cases.map(\.milliseconds) + [0])
    }

    @Test("A response that arrived, or a failure, reads as it was sent")
    func readableResponses() {
        let body: [UInt8] = Array(#"{"data":{}}"#.utf8)
        var arrived = body.withUnsafeBufferPointer { pb_http_response_arrived(200, $0.baseAddress, $0.count) }
        #expect(NetworkingViaHost.response(from: &arrived) == .success(HTTPResponse(status: 200, body: body)))
        var empty = pb_http_response_arrived(204, nil, 0)
        #expect(NetworkingViaHost.response(from: &empty) == .success(HTTPResponse(status: 204, body: [])))
        "connection refused".withCString { reason in
            var failed = pb_http_response_failed(reason)
            #expect(NetworkingViaHost.response(from: &failed) == .failure(TransportError(reason: "connection refused")))
        }
    }

    @Test("A response from a broken host is a transport error that says what is wrong, and is not read")
    func brokenResponses() {
        let size = UInt32(MemoryLayout<pb_http_response>.size)
        #expect(NetworkingViaHost.response(from: nil) == .failure(TransportError(reason: "the host answered with no response")))
        var truncated = pb_http_response(struct_size: 8, status: 200, body: nil, body_length: 0, error: nil)
        #expect(NetworkingViaHost.response(from: &truncated) == .failure(TransportError(reason: "the host's response is 8 bytes, expected at least \(size)")))
        var noStatus = pb_http_response(struct_size: size, status: 0, body: nil, body_length: 0, error: nil)
        #expect(NetworkingViaHost.response(from: &noStatus) == .failure(TransportError(reason: "the host reported status 0 without saying why")))
        var noBody = pb_http_response(struct_size: size, status: 200, body: nil, body_length: 5, error: nil)
        #expect(NetworkingViaHost.response(from: &noBody) == .failure(TransportError(reason: "the host reported a 5-byte body but sent none")))
    }
}
