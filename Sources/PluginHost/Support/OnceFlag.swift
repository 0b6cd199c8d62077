import Synchronization

/// A flag that is set once, for "say this once per run" across tasks.
final class OnceFlag: Sendable {
    private let isSet = Atomic(false)

    init() {}

    /// Sets the flag; true only for the first caller.
    func set() -> Bool {
        !isSet.exchange(true, ordering: .relaxed)
    }
}
