// The services every container under test builds: the same types, the same
// scopes, the same graph. Public, with inlinable initializers, so that the
// benchmarks and the resolve loop build them as cheaply as in one module.

/// Resolved as a singleton.
public final class SingletonService: @unchecked Sendable {
    // @unchecked Sendable: never mutated by the benchmarks; it only has to be shareable.
    public var value = 1

    @inlinable
    public init() {}
}

/// A singleton value type: copying it touches no reference count, so the
/// two-thread benchmark on it measures the container alone.
public struct SingletonValue: Sendable {
    public var a = 1
    public var b = 2

    @inlinable
    public init() {}
}

/// Resolved as a new instance every time.
public final class TransientService {
    public var value = 2

    @inlinable
    public init() {}
}

/// Built from one argument.
public final class ArgumentService {
    public let id: Int

    @inlinable
    public init(id: Int) { self.id = id }
}

/// The 7-node graph: Root -> (MidA, MidB); each Mid -> (a transient Leaf, the singleton Leaf).
public final class TransientLeaf {
    @inlinable
    public init() {}
}

/// The leaf every `Mid` shares.
public final class SingletonLeaf: @unchecked Sendable {
    // @unchecked Sendable: it has no state.
    @inlinable
    public init() {}
}

/// The first middle node of the graph.
public final class MidA {
    public let transient: TransientLeaf
    public let singleton: SingletonLeaf

    @inlinable
    public init(transient: TransientLeaf, singleton: SingletonLeaf) {
        self.transient = transient
        self.singleton = singleton
    }
}

/// The second middle node of the graph.
public final class MidB {
    public let transient: TransientLeaf
    public let singleton: SingletonLeaf

    @inlinable
    public init(transient: TransientLeaf, singleton: SingletonLeaf) {
        self.transient = transient
        self.singleton = singleton
    }
}

/// The root of the graph.
public final class Root {
    public let a: MidA
    public let b: MidB

    @inlinable
    public init(a: MidA, b: MidB) {
        self.a = a
        self.b = b
    }
}
