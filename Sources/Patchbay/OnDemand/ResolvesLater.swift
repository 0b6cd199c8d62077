/// A value made on demand that resolves its service from the container later: ``Lazy`` once, ``Provider`` on every call.
///
/// Both are made the same way, so they share ``make(from:name:arguments:)``:
/// check now that the service can be resolved with the name and arguments
/// given, then keep a ``DeferredResolve`` that resolves it with them.
protocol ResolvesLater: ResolvedOnDemand {
    /// The type the value resolves.
    associatedtype Service

    /// Makes the value around the resolve it makes later.
    init(_ resolve: DeferredResolve<Service>)
}

extension ResolvesLater {
    static func make<each Argument>(
        from container: Container, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Self {
        try container.requireResolvable(Service.self, name: name, argumentTypes: repeat (each Argument).self)
        guard ArgumentList<repeat each Argument>.id != ObjectIdentifier(NoArguments.self) else {
            return Self(DeferredResolve(container: container, name: name))
        }
        return Self(
            DeferredResolve(
                container: container, name: name, argumentTypes: ArgumentList<repeat each Argument>.types
            ) { container throws(ResolutionError) -> Service in
                try container.resolve(Service.self, name: name, arguments: repeat each arguments)
            })
    }
}
