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
    /// Resolving `type` under `name`, with the same argument types, yields the
    /// registration's service as `type`: a singleton resolved as the concrete
    /// type and as each protocol is one instance, and so is a graph-scope
    /// service within one resolution. A forwarded type follows its key: it
    /// reaches whatever is registered for the original key in the same container.
    ///
    /// As in Swinject, the forwarded type is unnamed unless `name` says
    /// otherwise, whatever the registration's own name:
    ///
    /// ```swift
    /// container.register(Dog.self, name: "rex") { _ in Dog() }
    ///     .implements(Animal.self)                 // resolve(Animal.self)
    ///     .implements(Animal.self, name: "rex")    // resolve(Animal.self, name: "rex")
    /// ```
    ///
    /// - Parameters:
    ///   - type: A type the service conforms to, usually a protocol.
    ///     Conformance is checked when resolving; a service that does not conform
    ///     fails with ``ResolutionError/Code/typeMismatch``.
    ///   - name: The name to resolve `type` under; nil, the default, for unnamed.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func implements<Forwarded>(_ type: Forwarded.Type, name: String? = nil) -> Self {
        let forwardedKey = RegistrationKey(
            service: ObjectIdentifier(type), arguments: key.arguments, name: name)
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

    /// Runs `body` on each new instance once it is kept in its scope, before it is returned.
    ///
    /// Every `initCompleted` added to a registration runs, in the order added.
    /// They run right after the factory returns, on the same thread, while the
    /// service is still on the resolution path: an error or a cycle inside one
    /// names the service, and ``Container/verify()`` records what it resolves as
    /// the service's dependencies.
    ///
    /// Use it to break a circular dependency by property injection. Before the
    /// completions run, the new instance is kept where the rest of the resolution
    /// can find it: in the graph for ``Scope/graph``, in its registration for the
    /// storing scopes. Either side of a pair may be the one with the property:
    ///
    /// ```swift
    /// // The parent completes: its child is built by initializer and finds the parent kept.
    /// container.register(Parent.self) { _ in Parent() }
    ///     .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
    /// container.register(Child.self) { r in Child(parent: try r.resolve(Parent.self)) }
    ///
    /// // The child completes: the parent, built by initializer, is still in its factory.
    /// container.register(Parent.self) { r in Parent(child: try r.resolve(Child.self)) }
    /// container.register(Child.self) { _ in Child() }
    ///     .initCompleted { r, child in child.parent = try r.resolve(Parent.self) }
    /// ```
    ///
    /// In the second case, resolving `Parent` runs its factory, which resolves
    /// `Child`; the child's completion asks for `Parent`, whose factory has not
    /// returned. So, as in Swinject, `Parent`'s factory runs a second time,
    /// inside the completion, and finds the child kept in the graph; that second
    /// parent is kept, and when the first factory returns, its result is dropped in
    /// favour of the kept one. The graph ends with one `Parent` and one `Child`,
    /// pointing at each other. A factory is re-entered this way at most once per
    /// resolution, only from inside a completion, and only in a scope that keeps
    /// its instance (every scope but ``Scope/unique``); any other repeat is a
    /// ``ResolutionError/Code/circularDependency`` with the whole chain.
    ///
    /// - Parameter body: Completes the instance; an error it throws fails the
    ///   resolve with ``ResolutionError/Code/factoryFailed``.
    /// - Returns: The same options, to chain.
    @discardableResult
    public func initCompleted(_ body: @escaping @Sendable (any Resolver, Service) throws -> Void) -> Self {
        let completion: Registration.Completion = { resolver, value in
            try body(resolver, value.assumingMemoryBound(to: Service.self).pointee)
        }
        container.registry.update(key) { registration in
            // NB: chained, not replaced: Swinject runs every completion, in order.
            guard let earlier = registration.completion else {
                return registration.with(completion: completion)
            }
            return registration.with(completion: { resolver, value in
                try earlier(resolver, value)
                try completion(resolver, value)
            })
        }
        return self
    }
}
