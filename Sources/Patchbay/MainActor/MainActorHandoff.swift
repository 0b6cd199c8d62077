/// Carries a value into and out of `MainActor.assumeIsolated`, on one thread, for values that need not be `Sendable`.
// @unchecked Sendable: made, written and read on one thread, within one
// synchronous call of a main-actor factory; never shared with another.
final class MainActorHandoff<Value>: @unchecked Sendable {
    var value: Value?

    init(_ value: Value?) {
        self.value = value
    }
}
