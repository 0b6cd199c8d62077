extension Container {
    /// Registers one more factory for a key, with a rank: the key resolves to its highest-ranked registration.
    ///
    /// Unlike ``register(_:name:scope:factory:)``, which replaces what the key
    /// had, a ranked registration joins the key's others, as GStreamer ranks
    /// the features that provide one capability. ``resolve(_:name:)->Service``
    /// gives the registration of the highest rank, the first registered among
    /// equals; ``resolveAll(_:name:)`` gives them all, in that order. A
    /// registration made without a rank counts as rank 0, and registering the
    /// key again without a rank replaces every one of them.
    ///
    /// ```swift
    /// container.register(PriceFetcher.self, name: "ETH", rank: 128) { _ in BitstampFetcher() }
    /// container.register(PriceFetcher.self, name: "ETH", rank: 256) { _ in CoinbaseFetcher() }
    /// try container.resolve(PriceFetcher.self, name: "ETH")       // the CoinbaseFetcher
    /// try container.resolveAll(PriceFetcher.self, name: "ETH")    // Coinbase's, then Bitstamp's
    /// ```
    ///
    /// See <doc:RankedRegistrations> for how a child's ranked registrations meet its parent's.
    ///
    /// - Parameters:
    ///   - serviceType: The type to register, usually a protocol; resolved by exactly this type.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - rank: Higher is resolved first; any value, negative ones after unranked registrations.
    ///   - scope: How long instances live; nil for the container's ``defaultScope``.
    ///     Each ranked registration keeps its own instance.
    ///   - factory: Builds the service. It may throw; the error reaches the
    ///     caller as ``ResolutionError/Code/factoryFailed`` with the resolution path.
    /// - Complexity: O(*k*) in the key's *k* registrations; resolving stays one
    ///   lock-free lookup, as for a registration without a rank.
    @inlinable
    public func register<Service, each Argument>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        rank: Int,
        scope: Scope? = nil,
        factory: @escaping @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) {
        // NB: inlinable for the same reason as `register(_:name:scope:factory:)`.
        publishRegistration(
            serviceType, name: name, rank: rank, scope: scope, arguments: ArgumentList<repeat each Argument>.id,
            argumentTypes: ArgumentList<repeat each Argument>.types, witness: ValueWitness(Service.self)
        ) { resolver, arguments, out in
            let tuple = arguments.assumingMemoryBound(to: (repeat each Argument).self).pointee
            let service = try factory(resolver, repeat each tuple)
            out.initializeMemory(as: Service.self, repeating: service, count: 1)
        }
    }

    /// Resolves every registration of a type under one name, highest rank first, then in registration order.
    ///
    /// The first is what ``resolve(_:name:)->Service`` gives. Like a resolve,
    /// it reads the nearest container that registers the key: a child's
    /// registrations of a key hide its parent's.
    ///
    /// ```swift
    /// let sources = try container.resolveAll(PriceFetcher.self, name: "ETH")
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The service type; may be inferred.
    ///   - name: The registration name, or nil for the unnamed registrations.
    /// - Returns: The services, in rank order, each under `name`; empty if none is registered.
    /// - Throws: ``ResolutionError`` if any of them fails to resolve.
    /// - Complexity: O(*k* log *k*) for the key's *k* registrations, then one resolve each.
    @inlinable
    public func resolveAll<Service>(
        _ serviceType: Service.Type = Service.self, name: String?
    ) throws(ResolutionError) -> All<Service> {
        let entries = rankedRegistrations(of: serviceType, name: name)
        var services: [Service] = []
        services.reserveCapacity(entries.count)
        for located in entries {
            services.append(try value(of: lookupForAll(located), arguments: noArgumentTuple))
        }
        // NB: the registrations are unretained; the registry that owns them lives as long as this container.
        withExtendedLifetime(self) {}
        return All(services: services, names: Array(repeating: name, count: services.count))
    }

    /// Every registration of a type under `name`, without arguments, in the nearest container that has one, in rank order.
    @usableFromInline
    func rankedRegistrations(of serviceType: Any.Type, name: String?) -> [Located] {
        let key = RegistrationKey(service: ObjectIdentifier(serviceType), arguments: ObjectIdentifier(NoArguments.self), name: name)
        guard let found = locate(key) else { return [] }
        return found.owner._withUnsafeGuaranteedRef { owner in
            owner.registry.candidates(for: key).map {
                Located(registration: Unmanaged.passUnretained($0.registration), owner: found.owner)
            }
        }
    }
}
