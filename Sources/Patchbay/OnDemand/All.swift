/// Every registration of a service type, resolved at once: resolve `All<T>`, or call ``Container/resolveAll(_:)``.
///
/// Autofac's `IEnumerable<T>` and Dagger's multibindings: register several
/// implementations of one type under different names, and inject them all.
///
/// ```swift
/// container.register(PriceFetcher.self, name: "BTC") { _ in BitcoinFetcher() }
/// container.register(PriceFetcher.self, name: "ETH") { _ in EthereumFetcher() }
/// let fetchers = try container.resolve(All<PriceFetcher>.self)
/// fetchers.names        // ["BTC", "ETH"]
/// fetchers[name: "ETH"] // the EthereumFetcher
/// ```
///
/// It holds every registration of the type that takes no arguments, under
/// every name and the unnamed one, each resolved in its own scope:
///
/// - In registration order: the order in which each name was first
///   registered. Registering a name again replaces its service in place.
/// - Parent and child merged: a parent's registrations come first, in the
///   parent's order; a child's registration of the same name takes the
///   parent's place, and the child's other names follow, in its order.
/// - Types forwarded with ``RegistrationOptions/implements(_:name:)`` count, under
///   the name they are forwarded under.
/// - Ranked: every registration made with
///   ``Container/register(_:name:rank:scope:factory:)`` is listed, not only the
///   one its name resolves to, and the whole list is in rank order, highest
///   first (one made without a rank counts as 0); equal ranks keep the order
///   above. A child's registrations of a name hide all of its parent's.
///   ``Container/resolveAll(_:name:)`` lists one name's.
///
/// With nothing registered, it is empty.
public struct All<Service>: RandomAccessCollection {
    /// The services, in rank order, then registration order.
    public let services: [Service]
    /// The registration name of each service, in the same order; nil for the unnamed registration.
    public let names: [String?]

    @usableFromInline
    init(services: [Service], names: [String?]) {
        self.services = services
        self.names = names
    }

    /// The position of the first service.
    public var startIndex: Int { services.startIndex }

    /// The position after the last service.
    public var endIndex: Int { services.endIndex }

    /// The service at `position`.
    ///
    /// - Parameter position: A valid index.
    public subscript(position: Int) -> Service { services[position] }

    /// The service registered under `name`, the one it resolves to when it has several ranked; nil if none. Pass nil for the unnamed registration.
    ///
    /// - Parameter name: A registration name, or nil.
    /// - Complexity: O(*n*).
    public subscript(name name: String?) -> Service? {
        names.firstIndex(of: name).map { services[$0] }
    }
}

extension All: ResolvedOnDemand {
    static func make<each Argument>(
        from container: Container, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Self {
        guard name == nil, ArgumentList<repeat each Argument>.id == ObjectIdentifier(NoArguments.self) else {
            throw container.notRegistered(
                ResolutionStep(
                    serviceType: All<Service>.self, name: name, argumentTypes: ArgumentList<repeat each Argument>.types))
        }
        return try container.resolveAll(Service.self)
    }
}

extension Container {
    /// Resolves every registration of a service type that takes no arguments, with its name.
    ///
    /// ```swift
    /// let fetchers = try container.resolveAll(PriceFetcher.self)
    /// for (name, fetcher) in zip(fetchers.names, fetchers) { … }
    /// ```
    ///
    /// See ``All`` for the order, and how a child's registrations merge with its parent's.
    ///
    /// - Parameter serviceType: The service type; may be inferred.
    /// - Returns: The services and their names, in rank order, then
    ///   registration order; empty if none is registered.
    /// - Throws: ``ResolutionError`` if any of them fails to resolve.
    /// - Complexity: one resolve each. The list of registrations is kept per
    ///   container and type; building it again after a registration in this
    ///   container or a parent costs O(*n* log *n*) in their registrations.
    @inlinable
    public func resolveAll<Service>(_ serviceType: Service.Type = Service.self) throws(ResolutionError) -> All<Service> {
        // NB: inlinable so that each value is copied out specialized for the caller's type.
        let list = registrationList(forAll: ObjectIdentifier(serviceType))
        var services: [Service] = []
        services.reserveCapacity(list.entries.count)
        for located in list.entries {
            services.append(try value(of: lookupForAll(located), arguments: noArgumentTuple))
        }
        // NB: the list's registrations are unretained; it, and the chain it names, must outlive their use.
        withExtendedLifetime(list) {}
        return All(services: services, names: list.names)
    }

    /// `located`, with its singleton storage if that is ready; never ready while `verify()` records.
    @usableFromInline
    func lookupForAll(_ located: Located) -> Lookup {
        let ready = recorder == nil ? located.registration._withUnsafeGuaranteedRef({ $0.readyStorage }) : nil
        return Lookup(located: located, readyStorage: ready)
    }

    /// The registrations ``All`` lists for a service type, from the cache unless a registration was published since.
    @usableFromInline
    func registrationList(forAll service: ObjectIdentifier) -> RegistrationList {
        if let cached = allRegistrations.withLock({ $0[service] }), cached.isCurrent(for: self) {
            return cached
        }
        let list = makeRegistrationList(forAll: service)
        allRegistrations.withLock { $0[service] = list }
        return list
    }

    private func makeRegistrationList(forAll service: ObjectIdentifier) -> RegistrationList {
        let noArguments = ObjectIdentifier(NoArguments.self)
        var chain: [Container] = []
        var container: Container? = self
        while let current = container {
            chain.append(current)
            container = current.parent
        }
        // Read before the registrations, so that one published meanwhile makes the list stale, not wrong.
        let generations = chain.map { $0.registry.generation.load(ordering: .acquiring) }
        // Root first, so that a parent's order comes first and a child's same name replaces it in place.
        var groups: [[RankedRegistration]] = []
        var owners: [Unmanaged<Container>] = []
        var positions: [String?: Int] = [:]
        var isRanked = false
        for owner in chain.reversed() {
            for candidates in owner.registry.candidates(forService: service) {
                guard let first = candidates.first, first.registration.key.arguments == noArguments else { continue }
                isRanked = isRanked || candidates.count > 1 || first.rank != 0
                // NB: names are unique within one container, so with no parent there is nothing to merge.
                if chain.count > 1, let position = positions[first.registration.key.name] {
                    groups[position] = candidates
                    owners[position] = Unmanaged.passUnretained(owner)
                } else {
                    if chain.count > 1 { positions[first.registration.key.name] = groups.count }
                    groups.append(candidates)
                    owners.append(Unmanaged.passUnretained(owner))
                }
            }
        }
        var ranked = zip(groups, owners).flatMap { candidates, owner in
            candidates.map { (located: Located(registration: Unmanaged.passUnretained($0.registration), owner: owner), rank: $0.rank) }
        }
        if isRanked {
            // Highest rank first; among equals, the merged registration order above.
            ranked = ranked.enumerated().sorted { ($0.element.rank, $1.offset) > ($1.element.rank, $0.offset) }.map(\.element)
        }
        let found = ranked.map(\.located)
        return RegistrationList(
            entries: found, names: found.map { $0.registration._withUnsafeGuaranteedRef(\.key.name) },
            generations: generations)
    }
}
