/// What the user asked of where plugins run: by who vouched for each (the
/// default), or every plugin one way. `PlacementRule` applies it.
package enum IsolationPolicy: Sendable, Equatable {
    /// Vouched plugins in-process, the rest in sandboxed workers.
    case byTrust
    /// Every plugin in a worker, because of the named switch (`--isolate`).
    case everything(because: String)
    /// Every plugin in-process, because of the named switch (`--no-isolate`).
    case nothing(because: String)

    /// Whether any plugin may run in a worker, which needs the worker options.
    package var mayIsolate: Bool {
        if case .nothing = self { false } else { true }
    }
}
