import Synchronization

/// The graph-scope instances of one resolution, held weakly once it has ended, for the ``Lazy`` values made during it.
///
/// Made only when a `Lazy` is made inside a resolution, so a resolution that
/// makes none pays nothing. When that resolution ends, each graph-scope
/// instance that is a class instance is recorded here, weakly; a later
/// ``Lazy/get()`` resolves inside this graph again, finding those still
/// alive and adding the instances it makes. Swinject's `GraphStorage` keeps
/// its instances per graph identifier in the same way.
@usableFromInline
final class ObjectGraph: Sendable {
    /// A weak reference to one registration's instance.
    // @unchecked Sendable: only read and written inside `kept`'s Mutex.
    private struct Kept: @unchecked Sendable {
        /// Retained, so that its identity cannot be reused while the entry names it.
        let registration: Registration
        weak var object: AnyObject?
    }

    private let kept = Mutex<[ObjectIdentifier: Kept]>([:])

    /// The live instance of `registration` in this graph, if any.
    func instance(of registration: Registration) -> AnyObject? {
        kept.withLock { $0[ObjectIdentifier(registration)]?.object }
    }

    /// Records the class instances among `entries` weakly; values that are not class instances cannot outlive their graph.
    func record(_ entries: UnsafeMutableBufferPointer<ResolutionState.GraphEntry>) {
        var objects: [(Registration, AnyObject)] = []
        for entry in entries {
            let registration = entry.registration.takeUnretainedValue()
            if let object = registration.witness.object(entry.value) {
                objects.append((registration, object))
            }
        }
        guard !objects.isEmpty else { return }
        kept.withLock { kept in
            for (registration, object) in objects {
                kept[ObjectIdentifier(registration)] = Kept(registration: registration, object: object)
            }
        }
    }

    /// How many registrations have a live instance here; for tests.
    var liveCount: Int {
        kept.withLock { kept in kept.values.count { $0.object != nil } }
    }
}
