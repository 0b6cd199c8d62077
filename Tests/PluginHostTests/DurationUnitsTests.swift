import HostShared
import Testing

/// How the host turns a `Duration` into what it hands on: a plugin's
/// `timeout_ms`, by the header's rule, and text for messages.
@Suite("Duration units")
struct DurationUnitsTests {
    @Test("timeout_ms rounds up by the header's rule, with the cases the SDK is held to")
    func timeoutMilliseconds() throws {
        for timeout in try ABIRuleCases.load().timeouts {
            #expect(timeout.duration.timeoutMilliseconds == timeout.milliseconds, "\(timeout.about)")
        }
    }

    @Test("A timeout too short to count in milliseconds is 1 ms, never 0, which a plugin reads as no limit")
    func shortTimeoutsAreNotUnlimited() {
        #expect(Duration.microseconds(400).timeoutMilliseconds == 1)
        #expect(Duration.nanoseconds(1).timeoutMilliseconds == 1)
        #expect(Duration.zero.timeoutMilliseconds == 0)
    }

    @Test("Durations read as people write them", arguments: [
        (duration: Duration.microseconds(420), text: "0.42 ms"),
        (duration: Duration.microseconds(9_990), text: "9.99 ms"),
        (duration: Duration.milliseconds(250), text: "250 ms"),
        (duration: Duration.seconds(2), text: "2 s"),
        (duration: Duration.milliseconds(1_500), text: "1.5 s"),
        (duration: Duration.seconds(Int64.max), text: "\(Int64.max / 1_000_000_000).8 s"),
    ])
    func humanReadable(duration: Duration, text: String) {
        #expect(duration.humanReadable == text)
    }
}
