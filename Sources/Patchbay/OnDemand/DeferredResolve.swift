/// A resolve kept for later: the container, held weakly, and the name and arguments to resolve the service with.
///
/// What ``Lazy`` and ``Provider`` hold; they differ in whether they keep the
/// result, and in the graph they resolve in.
@usableFromInline
struct DeferredResolve<Service> {
    @usableFromInline
    weak var container: Container?
    @usableFromInline
    let name: String?
    /// The resolve with the arguments given, which it keeps; nil when there are none, the common case.
    @usableFromInline
    let withArguments: ((Container) throws(ResolutionError) -> Service)?
    /// The arguments' types, to name the service once its container is gone.
    let argumentTypes: [Any.Type]

    init(
        container: Container, name: String?, argumentTypes: [Any.Type] = [],
        withArguments: ((Container) throws(ResolutionError) -> Service)? = nil
    ) {
        self.container = container
        self.name = name
        self.argumentTypes = argumentTypes
        self.withArguments = withArguments
    }

    /// Resolves the service now, from its container.
    ///
    /// - Throws: ``ResolutionError`` if it cannot be resolved, or
    ///   ``ResolutionError/Code/containerReleased`` if its container is gone.
    @inlinable
    @inline(__always)
    func resolve() throws(ResolutionError) -> Service {
        guard let container else { throw released() }
        return try resolve(from: container)
    }

    /// Resolves the service now, from `container`, which the caller holds.
    @inlinable
    @inline(__always)
    func resolve(from container: Container) throws(ResolutionError) -> Service {
        if let withArguments {
            return try withArguments(container)
        }
        return try container.resolve(Service.self, name: name)
    }

    /// The error for a resolve after the container is gone, naming the service.
    @usableFromInline
    func released() -> ResolutionError {
        .containerReleased(ResolutionStep(serviceType: Service.self, name: name, argumentTypes: argumentTypes))
    }
}
