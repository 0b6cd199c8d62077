/// When the host asks again after a transient answer (a 429 or 5xx, or a
/// dropped connection), always within the request's own deadline.
///
/// A `Retry-After` the server sends is obeyed when it fits before the
/// deadline; a request that cannot wait that long fails at once, naming the
/// delay. Without one, the host waits a jittered, doubling backoff, and
/// asks at most ``maximumRetries`` more times. A 4xx other than 429 is
/// never asked again.
package struct RetryPolicy: Sendable {
    /// How many more times one request is asked, at most.
    package var maximumRetries: Int
    /// The backoff before the first retry without `Retry-After`; each
    /// further one doubles it.
    package var initialBackoff: Duration

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumRetries: Retries after the first attempt; 0 never retries.
    ///   - initialBackoff: The first backoff, doubled on each retry.
    package init(maximumRetries: Int, initialBackoff: Duration) {
        self.maximumRetries = maximumRetries
        self.initialBackoff = initialBackoff
    }

    /// Three retries, from 250 ms: at most about 2 s of backoff in all.
    package static let standard = RetryPolicy(maximumRetries: 3, initialBackoff: .milliseconds(250))

    /// No retries: every answer stands.
    package static let never = RetryPolicy(maximumRetries: 0, initialBackoff: .zero)

    /// The backoff before retry `retry` (from 1): half the doubled backoff,
    /// plus a random part up to the other half, so that many clients
    /// refused at once do not come back at once.
    func backoff(before retry: Int) -> Duration {
        let full = initialBackoff * (1 << min(max(retry - 1, 0), 16))
        let half = full / 2
        let jitter = Double.random(in: 0...1)
        return half + half * jitter
    }
}
