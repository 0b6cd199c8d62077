extension Container {
    /// Resolves the service registered for a type and name, with no arguments.
    ///
    /// ```swift
    /// let fetcher = try container.resolve(PriceFetcher.self, name: "ETH")
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type; may be inferred.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Returns: The service, from the registration's scope.
    /// - Throws: ``ResolutionError`` if nothing is registered for the key, a
    ///   cycle is found, or a factory fails.
    /// - Complexity: O(1) for a singleton already made: one lock-free lookup
    ///   and one copy, with no allocation.
    @inlinable
    @inline(__always)
    public func resolve<Service>(
        _ serviceType: Service.Type = Service.self, name: String? = nil
    ) throws(ResolutionError) -> Service {
        // NB: inlinable so that copying or moving the value out is specialized
        // for the caller's type; the rest is one or two calls into the engine.
        // Always inlined: the optimizer judged it too large once it gained the
        // on-demand branch, and a factory's resolves then cost a call each.
        let found: Lookup
        do throws(ResolutionError) {
            found =
                if let name {
                    try lookUp(serviceType, name: name, arguments: ObjectIdentifier(NoArguments.self)) { [] }
                } else {
                    try lookUp(serviceType)
                }
        } catch {
            // Not registered: it may be a type made on demand, such as `Lazy<T>`.
            return try resolveOnDemand(serviceType, name: name, notFound: error)
        }
        return try value(of: found, arguments: noArgumentTuple)
    }

    /// Resolves the service registered for a type, name and argument types, passing the arguments to its factory.
    ///
    /// ```swift
    /// container.register(Wallet.self) { (r, owner: String) in Wallet(owner: owner) }
    /// let wallet = try container.resolve(Wallet.self, arguments: "ada")
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type; may be inferred.
    ///   - name: The registration name, or nil for the unnamed registration.
    ///   - arguments: The values for the factory's parameters after the
    ///     resolver. Their static types are part of the key.
    /// - Returns: The service, from the registration's scope.
    /// - Throws: ``ResolutionError`` if nothing is registered for the key, a
    ///   cycle is found, or a factory fails.
    @inlinable
    public func resolve<Service, each Argument>(
        _ serviceType: Service.Type = Service.self, name: String? = nil, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        // NB: inlinable so that the argument list's identity is a constant
        // for the caller's types, not a runtime metadata lookup.
        let found: Lookup
        do throws(ResolutionError) {
            found = try lookUp(serviceType, name: name, arguments: ArgumentList<repeat each Argument>.id) {
                ArgumentList<repeat each Argument>.types
            }
        } catch {
            return try resolveOnDemand(serviceType, name: name, arguments: repeat each arguments, notFound: error)
        }
        let tuple = (repeat each arguments)
        return try withUnsafePointer(to: tuple) { pointer throws(ResolutionError) -> Service in
            try value(of: found, arguments: UnsafeRawPointer(pointer))
        }
    }

    /// Resolves the service when the result is optional, and returns nil only if nothing is registered.
    ///
    /// Without this overload, `let fetcher: PriceFetcher? = try container.resolve()`
    /// would infer `Optional<PriceFetcher>` as the key and fail with "No
    /// registration for Optional<PriceFetcher>". With it, an optional result
    /// resolves the wrapped type, like ``resolveIfRegistered(_:name:)``:
    ///
    /// ```swift
    /// let fetcher: PriceFetcher? = try container.resolve()  // nil if PriceFetcher is not registered
    /// ```
    ///
    /// A registration made for the optional type itself, as in
    /// `register(Int?.self)`, is still found first.
    ///
    /// - Parameters:
    ///   - serviceType: The optional service type; usually inferred.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Returns: The service, or nil if nothing is registered for the wrapped type's key.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered".
    public func resolve<Wrapped>(
        _ serviceType: Wrapped?.Type = Wrapped?.self, name: String? = nil
    ) throws(ResolutionError) -> Wrapped? {
        if let found = lookUpIfRegistered(serviceType, name: name, arguments: ObjectIdentifier(NoArguments.self)) {
            return try value(of: found, arguments: noArgumentTuple) as Wrapped?
        }
        return try resolveIfRegistered(Wrapped.self, name: name)
    }

    /// Resolves the service with arguments when the result is optional, and returns nil only if nothing is registered.
    ///
    /// The optional counterpart of ``resolve(_:name:arguments:)->Service``; see ``resolve(_:name:)->Wrapped?``.
    ///
    /// - Parameters:
    ///   - serviceType: The optional service type; usually inferred.
    ///   - name: The registration name, or nil for the unnamed registration.
    ///   - arguments: The values for the factory's parameters after the resolver.
    /// - Returns: The service, or nil if nothing is registered for the wrapped type's key.
    /// - Throws: ``ResolutionError`` for every failure other than "not registered".
    public func resolve<Wrapped, each Argument>(
        _ serviceType: Wrapped?.Type = Wrapped?.self, name: String? = nil, arguments: repeat each Argument
    ) throws(ResolutionError) -> Wrapped? {
        if isRegistered(serviceType, name: name, argumentTypes: repeat (each Argument).self) {
            return try resolveIfRegistered(serviceType, name: name, arguments: repeat each arguments) ?? nil
        }
        return try resolveIfRegistered(Wrapped.self, name: name, arguments: repeat each arguments)
    }

    /// Resolves a service if it is registered, and returns nil only if it is not.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type; may be inferred.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Returns: The service, or nil if nothing is registered for the key.
    /// - Throws: ``ResolutionError`` for every other failure, including a
    ///   dependency of the service that is not registered.
    public func resolveIfRegistered<Service>(
        _ serviceType: Service.Type = Service.self, name: String? = nil
    ) throws(ResolutionError) -> Service? {
        guard let found = lookUpIfRegistered(serviceType, name: name, arguments: ObjectIdentifier(NoArguments.self))
        else {
            return try resolveOnDemandIfRegistered(serviceType, name: name)
        }
        return try value(of: found, arguments: noArgumentTuple) as Service
    }

    /// Resolves a service with arguments if it is registered, and returns nil only if it is not.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type; may be inferred.
    ///   - name: The registration name, or nil for the unnamed registration.
    ///   - arguments: The values for the factory's parameters after the resolver.
    /// - Returns: The service, or nil if nothing is registered for the key.
    /// - Throws: ``ResolutionError`` for every other failure.
    public func resolveIfRegistered<Service, each Argument>(
        _ serviceType: Service.Type = Service.self, name: String? = nil, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service? {
        guard let found = lookUpIfRegistered(serviceType, name: name, arguments: ArgumentList<repeat each Argument>.id)
        else {
            return try resolveOnDemandIfRegistered(serviceType, name: name, arguments: repeat each arguments)
        }
        let tuple = (repeat each arguments)
        return try withUnsafePointer(to: tuple) { pointer throws(ResolutionError) -> Service in
            try value(of: found, arguments: UnsafeRawPointer(pointer))
        }
    }

    // MARK: - Typed edge of the engine

    /// A registration found for a key, and the container it belongs to, both unretained.
    @usableFromInline
    struct Located {
        let registration: Unmanaged<Registration>
        let owner: Unmanaged<Container>
    }

    /// A registration found for a resolve without arguments, and its singleton storage if that is ready.
    @usableFromInline
    struct Lookup {
        @usableFromInline
        let located: Located
        /// The storage of a singleton that is ready to copy; nil when the engine must run.
        @usableFromInline
        let readyStorage: UnsafeMutableRawPointer?
    }

    /// Finds the registration for a type, name and argument list, and whether its singleton is ready.
    ///
    /// - Parameter argumentTypes: The argument types, computed only for the error.
    /// - Throws: ``ResolutionError/Code/notRegistered`` if there is none.
    @usableFromInline
    func lookUp(
        _ serviceType: Any.Type, name: String?, arguments: ObjectIdentifier, argumentTypes: () -> [Any.Type]
    ) throws(ResolutionError) -> Lookup {
        let key = RegistrationKey(service: ObjectIdentifier(serviceType), arguments: arguments, name: name)
        return try lookUp(key) {
            ResolutionStep(serviceType: serviceType, name: name, argumentTypes: argumentTypes())
        }
    }

    /// Finds the unnamed registration for a type that takes no arguments, and whether its singleton is ready.
    ///
    /// The common case of ``lookUp(_:name:arguments:argumentTypes:)``, with fewer values to pass.
    ///
    /// - Throws: ``ResolutionError/Code/notRegistered`` if there is none.
    @usableFromInline
    func lookUp(_ serviceType: Any.Type) throws(ResolutionError) -> Lookup {
        let key = RegistrationKey(service: ObjectIdentifier(serviceType), arguments: ObjectIdentifier(NoArguments.self))
        return try lookUp(key) { ResolutionStep(serviceType: serviceType) }
    }

    @inline(__always)
    private func lookUp(_ key: RegistrationKey, requested: () -> ResolutionStep) throws(ResolutionError) -> Lookup {
        guard let found = locate(key) ?? locateOnDemand(key) else {
            throw notFound(requested())
        }
        return lookup(of: found)
    }

    /// The maker cached for a type made on demand, such as `Lazy<T>`, once nothing in the chain registers `key`.
    @inline(never)
    private func locateOnDemand(_ key: RegistrationKey) -> Located? {
        onDemand.lookup(key).map { Located(registration: $0, owner: Unmanaged.passUnretained(self)) }
    }

    /// The error for a key with no registration; cheap for a type made on demand, whose caller makes it instead.
    @inline(never)
    private func notFound(_ requested: ResolutionStep) -> ResolutionError {
        // NB: listing the alternatives walks every registration; `resolveOnDemand` drops this error unread.
        if requested.serviceType is any ResolvedOnDemand.Type {
            return .notRegistered(requested, path: [], registered: [])
        }
        return notRegistered(requested)
    }

    /// Finds the registration for a type, name and argument list, or nil.
    @usableFromInline
    func lookUpIfRegistered(_ serviceType: Any.Type, name: String?, arguments: ObjectIdentifier) -> Lookup? {
        let key = RegistrationKey(service: ObjectIdentifier(serviceType), arguments: arguments, name: name)
        return locate(key).map(lookup(of:))
    }

    /// `found`, with its singleton storage if that is ready; never ready while `verify()` records.
    @inline(__always)
    private func lookup(of found: Located) -> Lookup {
        let ready = recorder == nil ? found.registration._withUnsafeGuaranteedRef({ $0.readyStorage }) : nil
        return Lookup(located: found, readyStorage: ready)
    }

    /// Stands for the empty argument tuple: reading `()` reads no bytes, so any valid address will do.
    @usableFromInline
    var noArgumentTuple: UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Finds the registration for `key` here or in the nearest ancestor.
    @inline(__always)
    func locate(_ key: RegistrationKey) -> Located? {
        if let registration = registry.lookup(key) {
            return Located(registration: registration, owner: Unmanaged.passUnretained(self))
        }
        guard let parentReference else { return nil }
        return locateInAncestors(key, from: parentReference)
    }

    @inline(never)
    private func locateInAncestors(_ key: RegistrationKey, from start: Unmanaged<Container>) -> Located? {
        var next: Unmanaged<Container>? = start
        while let container = next {
            if let registration = container._withUnsafeGuaranteedRef({ $0.registry.lookup(key) }) {
                return Located(registration: registration, owner: container)
            }
            next = container._withUnsafeGuaranteedRef { $0.parentReference }
        }
        return nil
    }

    /// The value of a looked-up registration as `Service`: a copy of a ready
    /// singleton, or a value the engine makes in stack scratch space.
    ///
    /// The key matched, so the registration's value type is `Service` (or,
    /// for a forwarder, converts to it).
    @inlinable
    @inline(__always)
    func value<Service>(of found: Lookup, arguments: UnsafeRawPointer) throws(ResolutionError) -> Service {
        if let ready = found.readyStorage {
            return ready.assumingMemoryBound(to: Service.self).pointee
        }
        guard
            MemoryLayout<Service>.size <= MemoryLayout<InlineScratch>.size,
            MemoryLayout<Service>.alignment <= MemoryLayout<InlineScratch>.alignment
        else {
            let out = UnsafeMutablePointer<Service>.allocate(capacity: 1)
            defer { out.deallocate() }
            if let failure = produce(found.located, arguments: arguments, into: UnsafeMutableRawPointer(out)) {
                throw failure
            }
            return out.move()
        }
        // NB: not `withUnsafeTemporaryAllocation`, whose typed-throws form
        // builds a `Result<Service, …>` and so looks up generic metadata on
        // every call; most services fit in a few words on the stack.
        var scratch = InlineScratch()
        return try withUnsafeMutableBytes(of: &scratch) { bytes throws(ResolutionError) -> Service in
            // NB: the bytes of a non-empty value always have a base address.
            let out = bytes.baseAddress.unsafelyUnwrapped
            if let failure = produce(found.located, arguments: arguments, into: out) {
                throw failure
            }
            return out.assumingMemoryBound(to: Service.self).move()
        }
    }

    /// Runs the engine on a located registration without retaining it or its owner.
    ///
    /// - Returns: The failure, or nil when `out` holds the value.
    @usableFromInline
    func produce(_ found: Located, arguments: UnsafeRawPointer, into out: UnsafeMutableRawPointer)
        -> ResolutionError?
    {
        if recorder != nil {
            record(found)
        }
        // NB: `_withUnsafeGuaranteedRef` takes rethrowing closures, which would
        // erase the typed error; so the error travels as a return value here.
        return found.registration._withUnsafeGuaranteedRef { registration -> ResolutionError? in
            found.owner._withUnsafeGuaranteedRef { owner -> ResolutionError? in
                do throws(ResolutionError) {
                    try produce(registration, owner: owner, arguments: arguments, into: out)
                    return nil
                } catch {
                    return error
                }
            }
        }
    }
}
