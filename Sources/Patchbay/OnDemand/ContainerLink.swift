internal import CPatchbay
import Synchronization

/// A ``Lazy``'s or ``Provider``'s way back to its container, which does not keep the container alive.
///
/// A `weak` reference would do, but costs a side-table load on every read,
/// and once a container has a weak reference every retain and release of it
/// takes the runtime's slow path. The `Lazy` holds this link strongly
/// instead; the container closes it when it goes away.
///
/// A reader announces itself in `readers`, reads the address, and tries to
/// retain the container, which fails once the container's deinit has begun;
/// then it leaves. ``close()`` clears the address and waits for the readers
/// still between their read and their retain, a window in which no user
/// code runs, so the wait is a few instructions long and cannot deadlock.
// NB: Sendable without `@unchecked`: both fields are atomics.
@usableFromInline
final class ContainerLink: Sendable {
    /// The container's address while it lives; 0 before it is attached and once it is closed.
    let address = Atomic<UInt>(0)
    /// How many threads are between reading `address` and retaining what they read.
    let readers = Atomic<Int>(0)

    init() {}

    /// Points the link at `container`, once its initializer has set every field.
    func attach(_ container: Container) {
        address.store(UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque()), ordering: .releasing)
    }

    /// The container, retained, or nil once it has begun to go away.
    ///
    /// NB: not inlinable: the C module is an internal import.
    @usableFromInline
    var container: Container? {
        // NB: sequentially consistent, as `close()` is: a reader that counts
        // itself before `close()` clears the address is waited for; one that
        // counts itself after reads 0.
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        let raw = address.load(ordering: .sequentiallyConsistent)
        let retained = UnsafeMutableRawPointer(bitPattern: raw).map { pb_try_retain($0) ? $0 : nil } ?? nil
        readers.wrappingSubtract(1, ordering: .releasing)
        guard let retained else { return nil }
        return Unmanaged<Container>.fromOpaque(retained).takeRetainedValue()
    }

    /// Clears the address and waits for the readers that may have read it; the container's deinit calls it.
    func close() {
        address.store(0, ordering: .sequentiallyConsistent)
        while readers.load(ordering: .sequentiallyConsistent) != 0 {}
    }
}
