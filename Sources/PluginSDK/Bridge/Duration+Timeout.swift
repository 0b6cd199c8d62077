internal import PluginABI

extension Duration {
    /// This duration as a `timeout_ms`, by the header's one rule
    /// (`pb_milliseconds_from_duration`): rounded up, so a positive duration
    /// is never 0, which the host reads as its default or no limit.
    var timeoutMilliseconds: UInt32 {
        let (seconds, attoseconds) = components
        return pb_milliseconds_from_duration(seconds, attoseconds)
    }
}
