extension Container {
    /// Registers a factory for a service type, optionally under a name and with arguments.
    ///
    /// The factory receives a ``Resolver`` for its own dependencies, then the
    /// arguments passed to ``resolve(_:name:arguments:)->Service``. Their types are part
    /// of the key, as is the name; registering the same key again replaces the
    /// earlier registration.
    ///
    /// ```swift
    /// container.register(PriceFetcher.self, name: "ETH") { r in
    ///     EthereumPriceFetcher(networking: try r.resolve(Networking.self))
    /// }
    /// container.register(Wallet.self) { (r, owner: String, limit: Int) in
    ///     Wallet(owner: owner, limit: limit)
    /// }
    /// ```
    ///
    /// > Warning: A service of a storing scope (singleton, cached, shared) is
    /// > handed to every thread that resolves it. Patchbay does not require
    /// > services to be `Sendable`; one shared across threads must be safe to
    /// > share.
    ///
    /// > Note: Resolve dependencies through the resolver the factory receives.
    /// > A factory that captures its own container strongly keeps that
    /// > container, and everything it holds, alive for good.
    ///
    /// - Parameters:
    ///   - serviceType: The type to register, usually a protocol; resolved by exactly this type.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - scope: How long instances live; nil for the container's ``defaultScope``.
    ///   - factory: Builds the service. It may throw; the error reaches the
    ///     caller as ``ResolutionError/Code/factoryFailed`` with the resolution path.
    /// - Returns: Options to chain, such as ``RegistrationOptions/implements(_:name:)``.
    @inlinable
    @discardableResult
    public func register<Service, each Argument>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope? = nil,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> RegistrationOptions<Service> {
        // NB: inlinable so that this closure and the value witness are
        // specialized for the caller's types: the engine calls them on every
        // resolve that runs a factory.
        publishRegistration(
            serviceType, name: name, rank: nil, scope: scope, arguments: ArgumentList<repeat each Argument>.id,
            argumentTypes: ArgumentList<repeat each Argument>.types, witness: ValueWitness(Service.self)
        ) { resolver, arguments, out in
            let tuple = arguments.assumingMemoryBound(to: (repeat each Argument).self).pointee
            let service = try factory(resolver, repeat each tuple)
            out.initializeMemory(as: Service.self, repeating: service, count: 1)
        }
    }

    /// Publishes a factory under its key: in place of the key's registrations
    /// without a `rank`, beside them with one (``register(_:name:rank:scope:factory:)``).
    @usableFromInline
    @discardableResult
    func publishRegistration<Service>(
        _ serviceType: Service.Type, name: String?, rank: Int?, scope: Scope?, arguments: ObjectIdentifier,
        argumentTypes: [Any.Type], witness: ValueWitness,
        make: @escaping @Sendable (any Resolver, UnsafeRawPointer, UnsafeMutableRawPointer) throws -> Void
    ) -> RegistrationOptions<Service> {
        let key = RegistrationKey(service: ObjectIdentifier(serviceType), arguments: arguments, name: name)
        let registration = Registration(
            key: key, scope: scope ?? defaultScope, witness: witness, argumentTypes: argumentTypes,
            forwardedTypes: [], factory: make, completion: nil)
        if let rank {
            registry.publish(registration, rank: rank)
        } else {
            registry.publish(registration)
        }
        return RegistrationOptions(container: self, key: key)
    }

    /// Registers a service built by an initializer whose every parameter is resolved from the container.
    ///
    /// ```swift
    /// container.autoregister(PriceFetcher.self, initializer: BitcoinPriceFetcher.init)
    /// // same as
    /// container.register(PriceFetcher.self) { r in
    ///     BitcoinPriceFetcher(networking: try r.resolve(Networking.self))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The type to register.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - scope: How long instances live; nil for the container's ``defaultScope``.
    ///   - initializer: Any function whose parameters are all registered services,
    ///     each resolved unnamed and without arguments, in order.
    /// - Returns: Options to chain, such as ``RegistrationOptions/implements(_:name:)``.
    @inlinable
    @discardableResult
    public func autoregister<Service, each Dependency>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope? = nil,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> RegistrationOptions<Service> {
        register(serviceType, name: name, scope: scope) { resolver in
            try initializer(repeat try resolver.resolve((each Dependency).self, name: nil))
        }
    }
}
