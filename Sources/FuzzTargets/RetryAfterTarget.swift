#if DEBUG || FUZZING
@testable import PluginHost

/// The `Retry-After` a server sends with a 429 or a 5xx, as the host reads
/// it to decide when to ask again (`RetryAfter.delay`).
///
/// Input: 8 bytes of the current time (seconds since 1970, as an integer),
/// then the header's value.
let retryAfterTarget = FuzzTarget("retry-after", "RetryAfter.delay; input: now (8 bytes), then the header value") { input throws(PropertyViolation) in
    let now = Double(input.integer(Int64.self) % 100_000_000_000)
    let text = String(decoding: input.remaining(), as: UTF8.self)
    guard let delay = RetryAfter.delay(text, now: now) else { return }
    try expect(delay >= .zero, "a Retry-After never asks for a negative delay", "\(text.debugDescription) at \(now) asks for \(delay)")
    let trimmed = text.trimmingCharacters(in: " \t")
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int64(trimmed) {
        try expect(delay == .seconds(seconds), "a Retry-After in seconds asks for that many", "\(text.debugDescription) asks for \(delay)")
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let inSet = { (character: Character) in set.contains(character) }
        let start = firstIndex { !inSet($0) } ?? endIndex
        let end = lastIndex { !inSet($0) }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}
#endif
