extension Container {
    /// Lists the registrations this container resolves, sorted by their description.
    ///
    /// Forwarded types are not listed on their own; they appear in each
    /// registration's ``RegistrationInfo/forwardedTypes``.
    ///
    /// - Parameter includingParents: Whether to include the registrations
    ///   inherited from parents, leaving out those a nearer container overrides.
    /// - Returns: One entry per key.
    /// - Complexity: O(*n* log *n*) in the number of registrations.
    public func registrations(includingParents: Bool = true) -> [RegistrationInfo] {
        effectiveRegistrations(includingParents: includingParents).map(RegistrationInfo.init)
    }

    /// The registration each key resolves to from here, nearest container first, without forwarders.
    func effectiveRegistrations(includingParents: Bool) -> [Registration] {
        var seen: Set<RegistrationKey> = []
        var result: [Registration] = []
        var container: Container? = self
        while let current = container {
            for registration in current.registry.current
            where !registration.isForwarder && seen.insert(registration.key).inserted {
                result.append(registration)
            }
            container = includingParents ? current.parent : nil
        }
        return result.sorted { $0.step.description < $1.step.description }
    }

    /// Whether something is registered for a type under a name, with any argument types, here or in a parent.
    ///
    /// Swinject's `hasAnyRegistration(of:name:)`, with the same meaning: only
    /// registrations under `name` count, and a nil name means the unnamed one.
    ///
    /// ```swift
    /// container.register(PriceFetcher.self, name: "ETH") { (_, id: Int) in … }
    /// container.hasAnyRegistration(PriceFetcher.self, name: "ETH")  // true, whatever the arguments
    /// container.hasAnyRegistration(PriceFetcher.self)               // false: no unnamed one
    /// container.hasRegistrationUnderAnyName(PriceFetcher.self)      // true
    /// ```
    ///
    /// A type forwarded with ``RegistrationOptions/implements(_:name:)`` counts.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Returns: Whether some registration of `serviceType` under `name` can be resolved from here.
    /// - Complexity: O(*n*) in the number of registrations of this container and its parents.
    public func hasAnyRegistration<Service>(_ serviceType: Service.Type, name: String? = nil) -> Bool {
        hasRegistration(ObjectIdentifier(serviceType)) { $0.name == name }
    }

    /// Whether anything is registered for a type, under any name or none and with any argument types, here or in a parent.
    ///
    /// ```swift
    /// container.register(PriceFetcher.self, name: "ETH") { _ in … }
    /// container.hasRegistrationUnderAnyName(PriceFetcher.self)  // true
    /// ```
    ///
    /// A type forwarded with ``RegistrationOptions/implements(_:name:)`` counts.
    ///
    /// - Parameter serviceType: The service type.
    /// - Returns: Whether some registration resolves as `serviceType`.
    /// - Complexity: O(*n*) in the number of registrations of this container and its parents.
    public func hasRegistrationUnderAnyName<Service>(_ serviceType: Service.Type) -> Bool {
        hasRegistration(ObjectIdentifier(serviceType)) { _ in true }
    }

    private func hasRegistration(_ service: ObjectIdentifier, where matches: (RegistrationKey) -> Bool) -> Bool {
        var container: Container? = self
        while let current = container {
            if current.registry.containsService(service, where: matches) { return true }
            container = current.parent
        }
        return false
    }

    /// Whether something is registered for a type, name and argument types, here or in a parent.
    ///
    /// - Parameters:
    ///   - serviceType: The service type.
    ///   - name: The registration name, or nil.
    ///   - argumentTypes: The factory's argument types, as in `String.self, Int.self`.
    /// - Returns: Whether ``resolve(_:name:arguments:)->Service`` would find a registration.
    public func isRegistered<Service, each Argument>(
        _ serviceType: Service.Type, name: String? = nil, argumentTypes: repeat (each Argument).Type
    ) -> Bool {
        let key = RegistrationKey(
            service: ObjectIdentifier(serviceType), arguments: ArgumentList<repeat each Argument>.id, name: name)
        return locate(key) != nil
    }
}
