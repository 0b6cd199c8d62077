/// Scans of plugin files nobody vouched for that run beside a fetch the
/// listing could already answer: the fetch never waits on them, and the run
/// waits for them only up to their limit (the fetch's `--timeout`) before it ends.
final class BackgroundScan: Sendable {
    private let task: Task<Void, Never>

    /// Starts `scans` now.
    init(_ scans: @escaping @Sendable () async -> Void) {
        task = Task { await scans() }
    }

    /// Waits for the scans, which their limit bounds.
    func finish() async {
        await task.value
    }
}
