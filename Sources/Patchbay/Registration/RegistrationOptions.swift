/// Further options for a registration, chained after ``Container/register(_:name:scope:factory:)``.
///
/// Each option applies to the registration now current for the key, and
/// publishes a changed copy; apply options before the first resolve, since a
/// copy starts with no stored instance.
///
/// ```swift
/// container.register(PriceService.self) { _ in PriceService() }
///     .implements(PriceFetching.self)
///     .implements(PriceUpdating.self)
///     .scope(.singleton)
/// ```
public struct RegistrationOptions<Service>: Sendable {
    let container: Container
    let key: RegistrationKey

    init(container: Container, key: RegistrationKey) {
        self.container = container
        self.key = key
    }

    /// Sets how long instances live.
    ///
    /// - Parameter scope: The new scope.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func scope(_ scope: Scope) -> Self {
        container.registry.update(key) { $0.with(scope: scope) }
        return self
    }

    /// Also resolves this registration as `type`, sharing its scope and instance.
    ///
    /// Resolving `type`, with the same name and argument types, yields the
    /// registration's service as `type`: a singleton resolved as the concrete
    /// type and as each protocol is one instance, and so is a graph-scope
    /// service within one resolution. A forwarded type follows its key: it
    /// reaches whatever is registered for the original key in the same container.
    ///
    /// - Parameter type: A type the service conforms to, usually a protocol.
    ///   Conformance is checked when resolving; a service that does not conform
    ///   fails with ``ResolutionError/Code/typeMismatch``.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func implements<Forwarded>(_ type: Forwarded.Type) -> Self {
        let forwardedKey = RegistrationKey(
            service: ObjectIdentifier(type), arguments: key.arguments, name: key.name)
        guard
            let target = container.registry.update(key, { $0.with(forwardedTypes: $0.forwardedTypes + [type]) })
        else { return self }
        let forwarder = Registration(
            key: forwardedKey, scope: target.scope, witness: ValueWitness(Forwarded.self),
            argumentTypes: target.argumentTypes, forwardedTypes: [], factory: nil, completion: nil,
            forwardTarget: key,
            conversion: { source, destination in
                guard let converted = source.assumingMemoryBound(to: Service.self).pointee as? Forwarded else {
                    return false
                }
                destination.initializeMemory(as: Forwarded.self, repeating: converted, count: 1)
                return true
            })
        container.registry.publish(forwarder)
        return self
    }

    /// Runs `body` on each new instance once it is stored in its scope, before it is returned.
    ///
    /// Use it to break a circular dependency by property injection: in graph
    /// or singleton scope, the other side can resolve this instance from
    /// `body`, because it is already built.
    ///
    /// ```swift
    /// container.register(Parent.self) { _ in Parent() }
    ///     .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
    /// container.register(Child.self) { r in Child(parent: try r.resolve(Parent.self)) }
    /// ```
    ///
    /// - Parameter body: Completes the instance; an error it throws fails the
    ///   resolve with ``ResolutionError/Code/factoryFailed``.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func initCompleted(_ body: @escaping @Sendable (any Resolver, Service) throws -> Void) -> Self {
        container.registry.update(key) { registration in
            registration.with(completion: { resolver, value in
                try body(resolver, value.assumingMemoryBound(to: Service.self).pointee)
            })
        }
        return self
    }
}
