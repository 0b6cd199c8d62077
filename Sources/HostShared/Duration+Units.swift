// One place that turns a Duration into the units the host hands on: C's
// milliseconds, NIO's nanoseconds, and text for messages. Every conversion
// saturates instead of trapping on a duration too long to represent.
extension Duration {
    /// Whole nanoseconds, saturating at `Int64.max`.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow || carry ? .max : total
    }

    /// Whole milliseconds, clamped to the range of a C `uint32_t`.
    package var clampedMilliseconds: UInt32 {
        UInt32(clamping: nanoseconds / 1_000_000)
    }

    /// A short human form for messages: "0.42 ms", "250 ms", "2 s", "1.5 s".
    package var humanReadable: String {
        let microseconds = nanoseconds / 1000
        let milliseconds = microseconds / 1000
        if milliseconds < 10 { return "\(milliseconds).\(twoDigits(microseconds % 1000 / 10)) ms" }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }

    private func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
