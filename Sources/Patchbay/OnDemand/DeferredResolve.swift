/// A resolve kept for later: the container, held weakly, and how to resolve the service from it.
///
/// What ``Lazy`` and ``Provider`` hold; they differ only in whether they keep the result.
struct DeferredResolve<Service> {
    private let container: WeakContainer
    /// The service, named in ``ResolutionError/Code/containerReleased`` once the container is gone.
    private let step: ResolutionStep
    private let load: (Container) throws(ResolutionError) -> Service

    init(
        container: Container, step: ResolutionStep, load: @escaping (Container) throws(ResolutionError) -> Service
    ) {
        self.container = WeakContainer(container)
        self.step = step
        self.load = load
    }

    /// Resolves the service now.
    ///
    /// - Throws: ``ResolutionError`` if it cannot be resolved, or
    ///   ``ResolutionError/Code/containerReleased`` if its container is gone.
    func resolve() throws(ResolutionError) -> Service {
        guard let container = container.object else { throw .containerReleased(step) }
        return try load(container)
    }
}
