#if DEBUG || FUZZING
import HostHTTPABI
import HostShared
@testable import PluginHost

/// `HostHTTPAnswer`: the HTTP client library's `host_http_response` as the
/// host reads it, and what a plugin is then handed.
///
/// Input: a flag byte (bit 0: an error; bit 1: no body; bit 2: a
/// location; bit 3: a Retry-After; bit 4: an undersized struct; bit 5: a
/// NULL response), the status and failure kind (4 bytes each), then the
/// error, location and Retry-After texts (a length byte each; a NUL cuts
/// them), then the body.
let hostHTTPAnswerTarget = FuzzTarget("host-http-answer", "HostHTTPAnswer(reading:), send(to:) and the outcome a plugin sees; input: flags, status, kind, texts, body") { input throws(PropertyViolation) in
    let flags = input.byte()
    let status: Int32 = input.integer()
    let kind: Int32 = input.integer()
    let texts = (0..<3).map { _ in Array(input.counted()) + [0] }
    let body = Array(input.remaining())
    func text(_ index: Int) -> String { String(decoding: texts[index].prefix { $0 != 0 }, as: UTF8.self) }

    let answer = texts[0].withUnsafeBufferPointer { error in
        texts[1].withUnsafeBufferPointer { location in
            texts[2].withUnsafeBufferPointer { retryAfter in
                body.withUnsafeBufferPointer { bodyBytes in
                    func string(_ bit: UInt8, _ buffer: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
                        flags & bit == 0 ? nil : UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
                    }
                    var response = host_http_response(
                        struct_size: UInt32(MemoryLayout<host_http_response>.size) - (flags & 0x10 == 0 ? 0 : 8), status: status,
                        body: flags & 0x02 == 0 ? bodyBytes.baseAddress : nil, body_length: flags & 0x02 == 0 ? bodyBytes.count : 0,
                        location: string(0x04, location), error: string(0x01, error), failure_kind: kind, retry_after: string(0x08, retryAfter))
                    return flags & 0x20 == 0 ? HostHTTPAnswer(reading: &response) : HostHTTPAnswer(reading: nil)
                }
            }
        }
    }

    let expected: HostHTTPAnswer =
        if flags & 0x30 != 0 {
            answer  // a NULL or undersized response: checked below
        } else if flags & 0x01 != 0 {
            .failure(text(0), kind: kind)
        } else {
            HostHTTPAnswer(
                reply: .response(status: Int(status), body: flags & 0x02 == 0 ? body : []), location: flags & 0x04 == 0 ? nil : text(1),
                retryAfter: flags & 0x08 == 0 ? nil : text(2))
        }
    if flags & 0x30 != 0 {
        guard case .failure(_, let failureKind) = answer.reply, failureKind == Int32(HOST_HTTP_FAILURE_OTHER) else {
            throw PropertyViolation(property: "a NULL or undersized response is read as a failure", detail: "\(answer)")
        }
    }
    try expect(answer == expected, "a response is read field for field", "read \(answer), expected \(expected)")

    // What the library sends, the host reads back the same.
    let box = UnsafeMutablePointer<HostHTTPAnswer?>.allocate(capacity: 1)
    box.initialize(to: nil)
    defer { box.deinitialize(count: 1).deallocate() }
    answer.send(to: { context, response in
        context?.assumingMemoryBound(to: HostHTTPAnswer?.self).pointee = HostHTTPAnswer(reading: response)
    }, context: UnsafeMutableRawPointer(box))
    let reread = box.pointee
    try expect(reread == answer, "an answer sent through host_http_response reads back the same", "\(answer) read back as \(String(describing: reread))")

    // What a plugin sees: the body as it came, or the reason with advice.
    switch (answer.outcome(advice: NetworkAdvice()), answer.reply) {
    case (.response(let seenStatus, let seenBody), .response(let status, let body)):
        try expect(seenStatus == status && seenBody == body, "a plugin sees the response as it came", "\(status)")
    case (.failure(let seen), .failure(let reason, _)):
        try expect(seen.hasPrefix(reason), "a plugin sees the library's reason first", seen.debugDescription)
    default:
        throw PropertyViolation(property: "a plugin sees a response as a response and a failure as a failure", detail: "\(answer)")
    }
    if let retryAfter = answer.retryAfter, let delay = RetryAfter.delay(retryAfter, now: 1_700_000_000) {
        try expect(delay >= .zero, "a Retry-After never asks for a negative delay", "\(retryAfter.debugDescription) asks for \(delay)")
    }
}
#endif
