import Synchronization

/// A parent built by initializer around its child; the child points back, set by `initCompleted`.
final class InitializedParent {
    let child: CompletingChild
    init(child: CompletingChild) { self.child = child }
}

final class CompletingChild {
    weak var parent: InitializedParent?
}

/// Swinject's four objects: A, B and C built by initializer, each around the next;
/// C points back at A, and D at B and C, set by `initCompleted`.
final class FourA {
    let b: FourB
    init(b: FourB) { self.b = b }
}

final class FourB {
    let c: FourC
    init(c: FourC) { self.c = c }
}

final class FourC {
    let d: FourD
    weak var a: FourA?
    init(d: FourD) { self.d = d }
}

final class FourD {
    weak var b: FourB?
    weak var c: FourC?
}

/// A pet owner with an animal whose food is set by `initCompleted`: for the path of an error inside a completion.
final class PetOwner {
    let animal: Animal
    init(animal: Animal) { self.animal = animal }
}

final class Animal {
    var food: Food?
}

final class Food {}

/// Records the order in which things happen, from any thread.
final class Log: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}
