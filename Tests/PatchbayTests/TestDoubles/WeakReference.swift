import Synchronization

/// A weak reference that a `@Sendable` factory can set and a test can read afterwards.
// @unchecked Sendable: `stored` is only read and written while holding `lock`.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    private let lock = Mutex(())
    private weak var stored: Object?

    /// The object, while something else keeps it alive.
    var object: Object? {
        get { lock.withLock { _ in stored } }
        set { lock.withLock { _ in stored = newValue } }
    }
}
