/// A value made on demand that resolves its service from the container later: ``Lazy`` once, ``Provider`` on every call.
///
/// Both hold the same things (their container, weakly; the name; and, when
/// there are arguments, the resolve with them), so they are made the same
/// way: check now that the service can be resolved with the name and
/// arguments given, then keep what resolves it later.
protocol ResolvesLater: ResolvedOnDemand {
    /// The type the value resolves.
    associatedtype Service

    /// Makes the value.
    ///
    /// - Parameters:
    ///   - container: The container to resolve from later, held weakly.
    ///   - name: The registration name.
    ///   - argumentTypes: The arguments' types, to name the service once its container is gone.
    ///   - withArguments: The resolve with the arguments given; nil when there are none.
    init(
        container: Container, name: String?, argumentTypes: [Any.Type],
        withArguments: ((Container) throws(ResolutionError) -> Service)?)
}

extension ResolvesLater {
    static func make<each Argument>(
        from container: Container, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Self {
        try container.requireResolvable(Service.self, name: name, argumentTypes: repeat (each Argument).self)
        guard ArgumentList<repeat each Argument>.id != ObjectIdentifier(NoArguments.self) else {
            return Self(container: container, name: name, argumentTypes: [], withArguments: nil)
        }
        return Self(
            container: container, name: name, argumentTypes: ArgumentList<repeat each Argument>.types
        ) { container throws(ResolutionError) -> Service in
            try container.resolve(Service.self, name: name, arguments: repeat each arguments)
        }
    }

    /// A maker for the common case, no arguments, that looks up no generic metadata when it runs.
    ///
    /// It runs unspecialized, so every generic type it names costs a runtime
    /// lookup: it names only `Self`, whose metadata it captures, and checks
    /// the service's key, computed here once.
    static func makerWithoutArguments(name: String?) -> Registration.Factory {
        let serviceKey = RegistrationKey(
            service: ObjectIdentifier(Service.self), arguments: ObjectIdentifier(NoArguments.self), name: name)
        let made = self
        return { resolver, _, out in
            // NB: the engine passes the container the request was made to.
            let container = unsafeDowncast(resolver as AnyObject, to: Container.self)
            if container.recorder != nil || container.locate(serviceKey) == nil {
                // Throws for a service not registered, and records the edge for `verify()`.
                try container.requireResolvable(Service.self, name: name)
            }
            // NB: moved into place, not copied: a copy of a weak reference costs a side-table round trip.
            out.initializeMemory(
                as: made, to: made.init(container: container, name: name, argumentTypes: [], withArguments: nil))
        }
    }
}
