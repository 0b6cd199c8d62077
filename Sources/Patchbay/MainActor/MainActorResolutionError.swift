/// The error a main-actor service's factory throws when it is resolved off the main actor.
///
/// A service registered with ``Container/registerMainActor(_:name:scope:factory:)``
/// is built and completed on the main actor. Resolved from main-actor code, it is
/// built right there, with no hop; resolved off the main actor, the resolve
/// throws a ``ResolutionError`` with code ``ResolutionError/Code/factoryFailed``
/// whose ``ResolutionError/underlyingError`` is this error, rather than stopping
/// the program as `MainActor.assumeIsolated` would.
public struct MainActorResolutionError: Error, CustomStringConvertible, Sendable {
    /// The main-actor service that was resolved, as its type's name.
    public let serviceTypeName: String

    init<Service>(_ serviceType: Service.Type) {
        serviceTypeName = String(reflecting: serviceType)
    }

    /// What happened and how to fix it.
    public var description: String {
        """
        \(serviceTypeName) is registered with `registerMainActor`, so it is built on the main actor, \
        but it was resolved off the main actor.

        To fix you can do one of two things:
          • Resolve it from main-actor code, such as a view, a view controller or a `@MainActor` function.
          • Hop first: `try await MainActor.run { try container.resolve(\(serviceTypeName).self) }`.
        """
    }
}
