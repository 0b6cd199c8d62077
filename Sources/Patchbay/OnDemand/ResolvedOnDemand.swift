/// A type the container makes itself when nothing is registered for it, from a registration of another type.
///
/// ``Lazy``, ``Provider`` and ``All`` conform: resolving `Lazy<T>` with a
/// name and arguments makes a `Lazy` that resolves `T` with that name and
/// those arguments later. A registration for the exact type, such as one the
/// user makes for `Lazy<T>`, is found first; this runs only when there is none.
protocol ResolvedOnDemand: SendableMetatype {
    /// Makes the value for a resolve of this type from `container`.
    ///
    /// - Throws: ``ResolutionError/Code/notRegistered`` for the type this one
    ///   stands for, if it cannot be resolved from `container`.
    static func make<each Argument>(
        from container: Container, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Self
}

extension Container {
    /// The value of a type nothing is registered for: made on demand if the type is ``ResolvedOnDemand``.
    ///
    /// - Parameter notFound: The error to throw for any other type.
    @usableFromInline
    @inline(never)
    func resolveOnDemand<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument, notFound: ResolutionError
    ) throws(ResolutionError) -> Service {
        guard let type = serviceType as? any ResolvedOnDemand.Type,
            let value = try makeOnDemand(type, name: name, arguments: repeat each arguments) as? Service
        else {
            throw notFound
        }
        return value
    }

    /// Opens the existential metatype, to call its `make`, and caches a maker for the key.
    private func makeOnDemand<OnDemand: ResolvedOnDemand, each Argument>(
        _ type: OnDemand.Type, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Any {
        cacheMaker(OnDemand.self, name: name, argumentTypes: repeat (each Argument).self)
        return try OnDemand.make(from: self, name: name, arguments: repeat each arguments)
    }

    /// Keeps a maker of `OnDemand` for this name and argument list in ``onDemand``, where the next resolve finds it.
    ///
    /// The cast to ``ResolvedOnDemand`` and the opening of its metatype cost
    /// more than a resolve; the maker is one lookup away, and writes the value
    /// straight into the engine's output, with no cast.
    private func cacheMaker<OnDemand: ResolvedOnDemand, each Argument>(
        _ type: OnDemand.Type, name: String?, argumentTypes: repeat (each Argument).Type
    ) {
        let key = RegistrationKey(
            service: ObjectIdentifier(OnDemand.self), arguments: ArgumentList<repeat each Argument>.id, name: name)
        guard recorder == nil, onDemand.lookup(key) == nil else { return }
        let factory: Registration.Factory
        if key.arguments == ObjectIdentifier(NoArguments.self), let later = OnDemand.self as? any ResolvesLater.Type {
            factory = later.makerWithoutArguments(name: name)
        } else {
            factory = { resolver, arguments, out in
                // NB: the engine passes the container the request was made to.
                let container = unsafeDowncast(resolver as AnyObject, to: Container.self)
                let tuple = arguments.assumingMemoryBound(to: (repeat each Argument).self).pointee
                let value = try OnDemand.make(from: container, name: name, arguments: repeat each tuple)
                out.initializeMemory(as: OnDemand.self, repeating: value, count: 1)
            }
        }
        let maker = Registration(
            key: key, scope: .onDemand, witness: ValueWitness(OnDemand.self),
            argumentTypes: ArgumentList<repeat each Argument>.types, forwardedTypes: [], factory: factory,
            completion: nil)
        onDemand.publish(maker)
    }

    /// Like ``resolveOnDemand(_:name:arguments:notFound:)``, but nil where that throws "not registered".
    @usableFromInline
    @inline(never)
    func resolveOnDemandIfRegistered<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service? {
        guard let type = serviceType as? any ResolvedOnDemand.Type else { return nil }
        do throws(ResolutionError) {
            return try makeOnDemand(type, name: name, arguments: repeat each arguments) as? Service
        } catch {
            if error.code == .notRegistered { return nil }
            throw error
        }
    }

    /// Checks that `Wrapped` can be resolved with this name and argument list, and records the edge for `verify()`.
    ///
    /// - Throws: ``ResolutionError/Code/notRegistered`` for `Wrapped` if it cannot.
    func requireResolvable<Wrapped, each Argument>(
        _ wrapped: Wrapped.Type, name: String?, argumentTypes: repeat (each Argument).Type
    ) throws(ResolutionError) {
        let arguments = ArgumentList<repeat each Argument>.id
        if let found = lookUpIfRegistered(wrapped, name: name, arguments: arguments) {
            if recorder != nil {
                record(found.located)
            }
            return
        }
        guard wrapped is any ResolvedOnDemand.Type else {
            throw notRegistered(
                ResolutionStep(
                    serviceType: wrapped, name: name, argumentTypes: ArgumentList<repeat each Argument>.types))
        }
    }
}
