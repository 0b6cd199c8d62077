import Patchbay

/// A service with no dependencies.
final class Leaf {}

/// Two services that both need a `Leaf`, to observe graph-scope sharing.
final class LeftBranch {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

final class RightBranch {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

/// Needs both branches.
final class Trunk {
    let left: LeftBranch
    let right: RightBranch
    init(left: LeftBranch, right: RightBranch) {
        self.left = left
        self.right = right
    }
}

/// A value type with more than eight words, which does not fit the engine's inline scratch space.
struct LargeValue: Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10
}

/// A value type with no stored properties.
struct EmptyValue: Equatable {}

/// A class the cycle tests wire in a loop: A > B > C > A.
final class CycleA {
    init(_ b: CycleB) {}
}

final class CycleB {
    init(_ c: CycleC) {}
}

final class CycleC {
    init(_ a: CycleA) {}
}

/// Two classes that point at each other, for property injection with `initCompleted`.
final class Parent {
    var child: Child?
}

final class Child {
    weak var parent: Parent?
    init(parent: Parent) { self.parent = parent }
}

/// An error a factory throws.
struct FactoryFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { "FactoryFailure(\(reason))" }
}

/// Resolves a `Leaf` from its container when it is destroyed, as a deinit that
/// reports through an injected service would.
final class ResolvesWhenReleased {
    let container: WeakReference<Container>
    let releases: Counter

    init(container: WeakReference<Container>, releases: Counter) {
        self.container = container
        self.releases = releases
    }

    deinit {
        releases.increment()
        _ = try? container.object?.resolve(Leaf.self)
    }
}
