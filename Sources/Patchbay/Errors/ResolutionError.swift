/// Why a service could not be resolved, with the path that led there and how to fix it.
///
/// Switch on ``code`` to tell the kinds apart; read ``description`` for a
/// message that names the key, the resolution path and the fix:
///
/// ```swift
/// do {
///     let fetcher = try container.resolve(PriceFetcher.self, name: "BTC")
/// } catch let error where error.code == .notRegistered {
///     print(error) // No registration for PriceFetcher(name: "BTC"). …
/// }
/// ```
public struct ResolutionError: Error, CustomStringConvertible {
    /// The kind of a ``ResolutionError``.
    ///
    /// New kinds may be added; a `switch` over codes should have a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        // NB: a struct over a private enum, so new codes are not a source break.
        private enum Base: Hashable, Sendable {
            case notRegistered, circularDependency, factoryFailed, typeMismatch, depthLimitExceeded, waitLimitExceeded, containerReleased
        }

        private let base: Base

        /// Nothing is registered for the requested type, name and argument types.
        public static let notRegistered = Code(base: .notRegistered)
        /// A factory needed, directly or indirectly, the service it was building.
        public static let circularDependency = Code(base: .circularDependency)
        /// A factory, or an `initCompleted` closure, threw an error of its own.
        public static let factoryFailed = Code(base: .factoryFailed)
        /// A forwarded type (`implements`) did not match the value the registration made.
        public static let typeMismatch = Code(base: .typeMismatch)
        /// Resolution nested deeper than ``Container/maximumDepth`` without repeating a registration.
        public static let depthLimitExceeded = Code(base: .depthLimitExceeded)
        /// Another thread was still creating the service when ``Container/creationWaitLimit`` ran out.
        public static let waitLimitExceeded = Code(base: .waitLimitExceeded)
        /// A ``Lazy`` or ``Provider`` was used after the container it resolves from was released.
        public static let containerReleased = Code(base: .containerReleased)

        /// The code's name, such as `notRegistered`.
        public var description: String {
            switch base {
            case .notRegistered: "notRegistered"
            case .circularDependency: "circularDependency"
            case .factoryFailed: "factoryFailed"
            case .typeMismatch: "typeMismatch"
            case .depthLimitExceeded: "depthLimitExceeded"
            case .waitLimitExceeded: "waitLimitExceeded"
            case .containerReleased: "containerReleased"
            }
        }
    }

    private enum Reason {
        case notRegistered(registered: [ResolutionStep])
        case circularDependency(acrossThreads: Bool)
        case factoryFailed(any Error)
        case typeMismatch(forwardedType: Any.Type, value: Any.Type)
        case depthLimitExceeded(limit: Int)
        // NB: indirect, so that this rare case's payload does not make every
        // ResolutionError larger: typed throws pass it through every resolve.
        indirect case waitLimitExceeded(scope: Scope, limit: Duration)
        case containerReleased
    }

    private let reason: Reason

    /// The service that could not be resolved.
    public let requested: ResolutionStep

    /// The resolution path from the top-level request down to ``requested``, inclusive.
    ///
    /// For a circular dependency it ends with the step that repeats an earlier one.
    public let path: [ResolutionStep]

    /// - Parameter path: The full path, ending with `requested`.
    private init(_ reason: Reason, requested: ResolutionStep, path: [ResolutionStep]) {
        self.reason = reason
        self.requested = requested
        self.path = path
    }

    static func notRegistered(
        _ requested: ResolutionStep, path: [ResolutionStep], registered: [ResolutionStep]
    ) -> ResolutionError {
        ResolutionError(.notRegistered(registered: registered), requested: requested, path: path + [requested])
    }

    static func circularDependency(
        _ requested: ResolutionStep, path: [ResolutionStep], acrossThreads: Bool = false
    ) -> ResolutionError {
        ResolutionError(.circularDependency(acrossThreads: acrossThreads), requested: requested, path: path)
    }

    static func factoryFailed(_ error: any Error, _ requested: ResolutionStep, path: [ResolutionStep])
        -> ResolutionError
    {
        ResolutionError(.factoryFailed(error), requested: requested, path: path)
    }

    static func typeMismatch(
        _ requested: ResolutionStep, value: Any.Type, path: [ResolutionStep]
    ) -> ResolutionError {
        ResolutionError(
            .typeMismatch(forwardedType: requested.serviceType, value: value), requested: requested,
            path: path + [requested])
    }

    static func depthLimitExceeded(_ requested: ResolutionStep, path: [ResolutionStep], limit: Int)
        -> ResolutionError
    {
        ResolutionError(.depthLimitExceeded(limit: limit), requested: requested, path: path + [requested])
    }

    static func waitLimitExceeded(_ requested: ResolutionStep, scope: Scope, path: [ResolutionStep], limit: Duration)
        -> ResolutionError
    {
        ResolutionError(.waitLimitExceeded(scope: scope, limit: limit), requested: requested, path: path)
    }

    static func containerReleased(_ requested: ResolutionStep) -> ResolutionError {
        ResolutionError(.containerReleased, requested: requested, path: [requested])
    }

    /// The kind of failure.
    public var code: Code {
        switch reason {
        case .notRegistered: .notRegistered
        case .circularDependency: .circularDependency
        case .factoryFailed: .factoryFailed
        case .typeMismatch: .typeMismatch
        case .depthLimitExceeded: .depthLimitExceeded
        case .waitLimitExceeded: .waitLimitExceeded
        case .containerReleased: .containerReleased
        }
    }

    /// The error a factory threw, for ``Code/factoryFailed``; otherwise nil.
    public var underlyingError: (any Error)? {
        if case .factoryFailed(let error) = reason { return error }
        return nil
    }

    /// For ``Code/notRegistered``: what is registered for the same service type, under other names or arguments.
    public var registeredAlternatives: [ResolutionStep] {
        if case .notRegistered(let registered) = reason { return registered }
        return []
    }

    /// The path as `A > B > C`.
    public var pathDescription: String {
        path.map(\.description).joined(separator: " > ")
    }

    /// What happened, the key and path involved, and how to fix it.
    public var description: String {
        switch reason {
        case .notRegistered(let registered):
            return notRegisteredDescription(registered: registered)
        case .circularDependency(let acrossThreads):
            return """
                Circular dependency: \(pathDescription)\(acrossThreads ? " (found across threads)" : "").
                  A factory asked, directly or through the services it resolves, for the service it is building.

                To fix you can do one of three things:
                  • Break the cycle: give one side a property and set it in `initCompleted` \
                (any scope but unique), where the other side is already built.
                  • Inject something lazy instead of the instance: a closure, or a `@LazyInjected` property.
                  • Move what both sides need into a third service that depends on neither.
                """
        case .factoryFailed(let error):
            return """
                The factory for \(requested) threw: \(String(describing: error))
                  Resolution path: \(pathDescription)

                To fix, make the factory succeed, or catch the ResolutionError where \(requested.serviceTypeName) \
                is resolved and handle `underlyingError`.
                """
        case .typeMismatch(let forwardedType, let value):
            return """
                \(requested) is forwarded with `.implements(\(typeName(forwardedType)).self)`, but the registration \
                made a \(typeName(value)), which is not a \(typeName(forwardedType)).
                  Resolution path: \(pathDescription)

                To fix, make \(typeName(value)) conform to \(typeName(forwardedType)), or remove \
                `.implements(\(typeName(forwardedType)).self)` from the registration.
                """
        case .depthLimitExceeded(let limit):
            return """
                Resolution of \(requested) went deeper than \(limit) levels without repeating a registration.
                  Resolution path: \(pathDescription)

                To fix, look for a factory that creates a new container or registers anew each time it runs, \
                and build that container once instead.
                """
        case .containerReleased:
            return """
                Cannot resolve \(requested): the container it was to be resolved from has been released.
                  A Lazy or Provider does not keep its container alive, so that a service keeping one does not \
                keep the container alive either.

                To fix, keep the container alive for as long as the services it built use their Lazy or Provider values.
                """
        case .waitLimitExceeded(let scope, let limit):
            return """
                Gave up on \(requested) [\(scope)] after waiting \(limit): another thread is still creating it.
                  Resolution path: \(pathDescription)
                  A \(scope) factory runs under its registration's creation lock, so that it runs once; \
                every other thread that asks for \(requested.serviceTypeName) meanwhile waits for it to return.

                To fix you can do one of two things:
                  • If the factory waits for another thread (a semaphore, a queue, a task), make sure that thread \
                does not resolve \(requested.serviceTypeName): it would wait for the factory, and the factory for it.
                  • Or, if the factory is only slow, raise the container's `creationWaitLimit`.
                """
        }
    }

    private func notRegisteredDescription(registered: [ResolutionStep]) -> String {
        var lines = ["No registration for \(requested)."]
        if path.count > 1 {
            lines.append("  Resolution path: \(pathDescription)")
        }
        let type = requested.serviceTypeName
        if registered.isEmpty {
            lines.append("  Nothing is registered for \(type), under any name or arguments.")
        } else {
            lines.append("  Registered for \(type):")
            lines += registered.map { "    • \($0)" }
        }
        lines.append("")
        lines.append("To fix you can do one of two things:")
        lines.append("  • Register it: \(registrationExample).")
        if registered.isEmpty {
            lines.append(
                "  • Or resolve it from the container that registers it, or make that container this one's parent.")
        } else {
            lines.append("  • Or resolve one of the registrations above, with its name and argument types.")
        }
        return lines.joined(separator: "\n")
    }

    private var registrationExample: String {
        let type = requested.serviceTypeName
        let name = requested.name.map { ", name: \(quoted($0))" } ?? ""
        let parameters = requested.argumentTypes.enumerated().map { index, argument in
            "argument\(index + 1): \(typeName(argument))"
        }
        let closure =
            parameters.isEmpty ? "{ resolver in … }" : "{ (resolver, \(parameters.joined(separator: ", "))) in … }"
        return "container.register(\(type).self\(name)) \(closure)"
    }
}
