/// A value that only the main actor may read, carried inside a registration's `@Sendable` closures.
// @unchecked Sendable: `value` is read only after `MainActorCheck.require`
// has found the calling code on the main actor, and never written.
final class MainActorBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
