// The services every container under test builds: the same types, the same
// scopes, the same graph.

/// Resolved as a singleton.
final class SingletonService: @unchecked Sendable {
    var value = 1
}

/// A singleton value type: copying it touches no reference count, so the
/// two-thread benchmark on it measures the container alone.
struct SingletonValue: Sendable {
    var a = 1
    var b = 2
}

/// Resolved as a new instance every time.
final class TransientService {
    var value = 2
}

/// Built from one argument.
final class ArgumentService {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The 7-node graph: Root -> (MidA, MidB); each Mid -> (a transient Leaf, the singleton Leaf).
final class TransientLeaf {}

final class SingletonLeaf: @unchecked Sendable {}

final class MidA {
    let transient: TransientLeaf
    let singleton: SingletonLeaf
    init(transient: TransientLeaf, singleton: SingletonLeaf) {
        self.transient = transient
        self.singleton = singleton
    }
}

final class MidB {
    let transient: TransientLeaf
    let singleton: SingletonLeaf
    init(transient: TransientLeaf, singleton: SingletonLeaf) {
        self.transient = transient
        self.singleton = singleton
    }
}

final class Root {
    let a: MidA
    let b: MidB
    init(a: MidA, b: MidB) {
        self.a = a
        self.b = b
    }
}
