/// Further options for a main-actor registration, chained after ``Container/registerMainActor(_:name:scope:factory:)``.
///
/// The same options as ``RegistrationOptions``, but ``initCompleted(_:)``
/// takes a main-actor closure, so that it may set a view controller's
/// properties:
///
/// ```swift
/// container.registerMainActor(WeatherViewController.self) { _ in WeatherViewController() }
///     .initCompleted { r, controller in controller.fetcher = try r.resolve(WeatherFetcher.self) }
/// ```
public struct MainActorRegistrationOptions<Service>: Sendable {
    /// The options of the underlying registration.
    public let options: RegistrationOptions<Service>

    init(_ options: RegistrationOptions<Service>) {
        self.options = options
    }

    /// Sets how long instances live; see ``RegistrationOptions/scope(_:)``.
    ///
    /// - Parameter scope: The new scope.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func scope(_ scope: Scope) -> Self {
        options.scope(scope)
        return self
    }

    /// Also resolves this registration as `type`; see ``RegistrationOptions/implements(_:name:)``.
    ///
    /// - Parameters:
    ///   - type: A type the service conforms to, usually a protocol.
    ///   - name: The name to resolve `type` under; nil, the default, for unnamed.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func implements<Forwarded>(_ type: Forwarded.Type, name: String? = nil) -> Self {
        options.implements(type, name: name)
        return self
    }

    /// Runs `body` on the main actor on each new instance, before it is returned; see ``RegistrationOptions/initCompleted(_:)``.
    ///
    /// Use it for storyboard-style property injection: SwinjectStoryboard's
    /// `storyboardInitCompleted` ports to this.
    ///
    /// - Parameter body: Completes the instance on the main actor; an error it
    ///   throws fails the resolve with ``ResolutionError/Code/factoryFailed``.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func initCompleted(_ body: @escaping @MainActor @Sendable (any Resolver, Service) throws -> Void) -> Self {
        // NB: as in `registerMainActor`: checked, then called as nonisolated.
        let onMainThread = unsafeBitCast(body, to: (@Sendable (any Resolver, Service) throws -> Void).self)
        options.initCompleted { resolver, service in
            try MainActorCheck.require(Service.self)
            try onMainThread(resolver, service)
        }
        return self
    }
}
