import FoundationEssentials
import HostShared

extension HostServices {
    /// One hop of a GET, asked again after transient answers as
    /// ``RetryPolicy`` says, within `deadline`. The URL is the one the policy
    /// already allowed: a retry asks for nothing new.
    /// - Parameters:
    ///   - networking: Performs each attempt.
    ///   - url: The hop's URL, already checked.
    ///   - timeout: The first attempt's timeout.
    ///   - deadline: When the whole request must be over.
    ///   - asked: The request's timeout, for failure lines.
    ///   - plugin: The plugin's name, for log lines.
    /// - Returns: The hop's answer; never ``HTTPHop/transient(_:retryAfter:)``.
    func hopRetrying(
        _ networking: any HostNetworking, _ url: URL, timeout: Duration, deadline: ContinuousClock.Instant, asked: Duration, plugin: String
    ) async -> HTTPHop {
        let clock = ContinuousClock()
        var attempt = 0
        var hopTimeout = timeout
        while true {
            let answer = await networking.hop(url, timeout: hopTimeout)
            guard case .transient(let outcome, let retryAfter) = answer else { return answer }
            attempt += 1
            let left = deadline - clock.now
            let what = Self.summary(of: outcome)
            let delay: Duration
            if let retryAfter {
                guard retryAfter < left else {
                    return .outcome(.failure(Self.waitTooLong(url, what: what, outcome: outcome, retryAfter: retryAfter, left: left, asked: asked)))
                }
                delay = retryAfter
            } else {
                delay = retries.backoff(before: attempt)
                guard delay < left else {
                    logger.debug("plugin \(plugin): \(url.absoluteString) \(what); no time left to ask again")
                    return .outcome(outcome)
                }
            }
            guard attempt <= retries.maximumRetries else {
                logger.debug("plugin \(plugin): \(url.absoluteString) \(what); gave up after \(retries.maximumRetries) retries")
                return .outcome(outcome)
            }
            let why = retryAfter == nil ? "after a backoff of" : "as its Retry-After asks, in"
            logger.debug("plugin \(plugin): \(url.absoluteString) \(what); asking again \(why) \(delay.humanReadable) (retry \(attempt) of \(retries.maximumRetries))")
            do {
                try await Task.sleep(for: delay)
            } catch {
                return .outcome(outcome)
            }
            hopTimeout = deadline - clock.now
            guard hopTimeout > .zero else { return .outcome(.failure("timed out after \(asked.humanReadable)")) }
        }
    }

    /// "answered HTTP 503" or "failed: connection reset by peer".
    private static func summary(of outcome: HTTPOutcome) -> String {
        switch outcome {
        case .response(let status, _): "answered HTTP \(status)"
        case .failure(let reason): "failed: \(reason)"
        }
    }

    /// The line for a `Retry-After` that does not fit: what limited the
    /// request, the delay asked for, and the time left.
    private static func waitTooLong(_ url: URL, what: String, outcome: HTTPOutcome, retryAfter: Duration, left: Duration, asked: Duration) -> String {
        let limit = if case .response(429, _) = outcome { "rate limited" } else { "unavailable" }
        var server = url.host(percentEncoded: false) ?? url.absoluteString
        if let port = url.port { server += ":\(port)" }
        let remaining = max(left, .zero)
        return "\(limit): \(server) \(what) and asked to wait \(retryAfter.humanReadable) before trying again, longer than the \(remaining.humanReadable) left of the \(asked.humanReadable) timeout"
    }
}
