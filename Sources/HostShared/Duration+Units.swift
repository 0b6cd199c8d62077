import PluginABI

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

    /// This duration as a `timeout_ms`, by the plugin header's one rule
    /// (`pb_milliseconds_from_duration`, which plugins use too): rounded up,
    /// so a positive duration is never 0, which a plugin reads as no limit;
    /// 0 for a zero or negative one; at most `UInt32.max`.
    package var timeoutMilliseconds: UInt32 {
        let (seconds, attoseconds) = components
        return pb_milliseconds_from_duration(seconds, attoseconds)
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
