/// Something that resolves services: a ``Container``, and what a factory receives.
///
/// A factory resolves its own dependencies from the resolver it is given,
/// which keeps them inside the same resolution: graph-scope sharing, cycle
/// detection and ``Container/verify()`` all depend on it.
///
/// ```swift
/// container.register(PriceFetcher.self) { r in
///     BitcoinPriceFetcher(networking: try r.resolve(Networking.self))
/// }
/// ```
///
/// Resolvers are classes: a factory receives its resolver as a class
/// existential, which costs no boxing on each call.
public protocol Resolver: AnyObject, Sendable {
    /// Resolves the service registered for a type and name, with no arguments.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Returns: The service, from the registration's scope.
    /// - Throws: ``ResolutionError`` if nothing is registered, a cycle is found or a factory fails.
    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws(ResolutionError) -> Service

    /// Resolves the service registered for a type, name and argument types, passing the arguments to its factory.
    ///
    /// The argument types are part of the key: a registration whose factory
    /// takes a `String` is not found by a call that passes an `Int`.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type.
    ///   - name: The registration name, or nil for the unnamed registration.
    ///   - arguments: The values for the factory's parameters after the resolver.
    /// - Returns: The service, from the registration's scope.
    /// - Throws: ``ResolutionError`` if nothing is registered, a cycle is found or a factory fails.
    func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service

    /// Resolves a service if it is registered, and nil only if it is not.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Returns: The service, or nil if nothing is registered for the key.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered",
    ///   including a missing dependency of the service itself.
    func resolveIfRegistered<Service>(_ serviceType: Service.Type, name: String?) throws(ResolutionError) -> Service?

    /// Resolves a service with arguments if it is registered, and nil only if it is not.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type.
    ///   - name: The registration name, or nil for the unnamed registration.
    ///   - arguments: The values for the factory's parameters after the resolver.
    /// - Returns: The service, or nil if nothing is registered for the key.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered".
    func resolveIfRegistered<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service?
}

extension Resolver {
    /// Resolves the unnamed service registered for a type, which may be inferred.
    ///
    /// - Parameter serviceType: The registered service type.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` if it cannot be resolved.
    @inlinable
    @inline(__always)
    public func resolve<Service>(_ serviceType: Service.Type = Service.self) throws(ResolutionError) -> Service {
        // NB: a factory's resolver is almost always a Container; calling it
        // directly, not through the protocol, lets the resolve be specialized.
        // Always inlined: called on `any Resolver`, `Self` is an opened
        // existential, and a function generic over it is never specialized.
        if Self.self == Container.self {
            return try unsafeDowncast(self, to: Container.self).resolve(serviceType, name: nil)
        }
        return try resolve(serviceType, name: nil)
    }

    /// Resolves the unnamed service registered for a type and argument types.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type.
    ///   - arguments: The values for the factory's parameters after the resolver.
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` if it cannot be resolved.
    @inlinable
    @inline(__always)
    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type = Service.self, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        if Self.self == Container.self {
            return try unsafeDowncast(self, to: Container.self).resolve(
                serviceType, name: nil, arguments: repeat each arguments)
        }
        return try resolve(serviceType, name: nil, arguments: repeat each arguments)
    }

    /// Resolves the unnamed service when the result is optional, and nil only if nothing is registered.
    ///
    /// So `let networking: Networking? = try r.resolve()` resolves `Networking`,
    /// not `Optional<Networking>`; see ``Container/resolve(_:name:)->Wrapped?``.
    ///
    /// - Parameter serviceType: The optional service type; usually inferred.
    /// - Returns: The service, or nil if it is not registered.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered".
    @inlinable
    public func resolve<Wrapped>(_ serviceType: Wrapped?.Type = Wrapped?.self) throws(ResolutionError) -> Wrapped? {
        if Self.self == Container.self {
            return try unsafeDowncast(self, to: Container.self).resolve(serviceType, name: nil)
        }
        if let explicit = try resolveIfRegistered(serviceType, name: nil) {
            return explicit
        }
        return try resolveIfRegistered(Wrapped.self, name: nil)
    }

    /// Resolves the unnamed service with arguments when the result is optional, and nil only if nothing is registered.
    ///
    /// - Parameters:
    ///   - serviceType: The optional service type; usually inferred.
    ///   - arguments: The values for the factory's parameters after the resolver.
    /// - Returns: The service, or nil if it is not registered.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered".
    @inlinable
    public func resolve<Wrapped, each Argument>(
        _ serviceType: Wrapped?.Type = Wrapped?.self, arguments: repeat each Argument
    ) throws(ResolutionError) -> Wrapped? {
        if Self.self == Container.self {
            return try unsafeDowncast(self, to: Container.self).resolve(
                serviceType, name: nil, arguments: repeat each arguments)
        }
        if let explicit = try resolveIfRegistered(serviceType, name: nil, arguments: repeat each arguments) {
            return explicit
        }
        return try resolveIfRegistered(Wrapped.self, name: nil, arguments: repeat each arguments)
    }

    /// Resolves the unnamed service for a type if it is registered, and nil only if it is not.
    ///
    /// - Parameter serviceType: The registered service type.
    /// - Returns: The service, or nil if it is not registered.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered".
    @inlinable
    @inline(__always)
    public func resolveIfRegistered<Service>(
        _ serviceType: Service.Type = Service.self
    ) throws(ResolutionError) -> Service? {
        if Self.self == Container.self {
            return try unsafeDowncast(self, to: Container.self).resolveIfRegistered(serviceType, name: nil)
        }
        return try resolveIfRegistered(serviceType, name: nil)
    }
}
