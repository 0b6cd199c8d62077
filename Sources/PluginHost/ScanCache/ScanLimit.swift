/// How far a run's scans of plugin files nobody vouched for may go: they
/// are bounded per run in time, so a folder of files that hang while they
/// register costs each run a bounded wait, and the next run goes on where
/// this one stopped.
struct ScanLimit: Sendable {
    /// No scan starts after this instant; nil: every file is scanned.
    var startBy: ContinuousClock.Instant?
    /// A scan still running at this instant is stopped and left for the
    /// next run, not recorded as hung; nil: each runs to its load timeout.
    var cutAt: ContinuousClock.Instant?

    /// Every file is scanned, each up to its load timeout, as `host rescan` asks.
    static let none = ScanLimit()

    /// Whether a scan may start now.
    func allowsStart(at now: ContinuousClock.Instant = .now) -> Bool {
        startBy.map { now < $0 } ?? true
    }
}
