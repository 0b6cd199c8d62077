import Patchbay

/// The workload wired into a Patchbay container, shared by the benchmarks and the resolve loop.
public enum PatchbayWorkload {
    /// A new container with every service of the workload registered in its scope.
    public static func makeContainer() -> Container {
        let container = Container()
        container.register(SingletonService.self, scope: .singleton) { _ in SingletonService() }
        container.register(SingletonValue.self, scope: .singleton) { _ in SingletonValue() }
        container.register(TransientService.self, scope: .unique) { _ in TransientService() }
        container.register(ArgumentService.self, scope: .unique) { (_, id: Int) in ArgumentService(id: id) }
        container.register(TransientLeaf.self, scope: .unique) { _ in TransientLeaf() }
        container.register(SingletonLeaf.self, scope: .singleton) { _ in SingletonLeaf() }
        container.register(MidA.self, scope: .graph) { r in
            MidA(transient: try r.resolve(TransientLeaf.self), singleton: try r.resolve(SingletonLeaf.self))
        }
        container.register(MidB.self, scope: .graph) { r in
            MidB(transient: try r.resolve(TransientLeaf.self), singleton: try r.resolve(SingletonLeaf.self))
        }
        container.register(Root.self, scope: .graph) { r in
            Root(a: try r.resolve(MidA.self), b: try r.resolve(MidB.self))
        }
        return container
    }

    /// A container with one named unique service, for the named resolve.
    ///
    /// NB: a container of its own, so that the other workloads' registry keeps its size and probe lengths.
    public static func makeNamedContainer() -> Container {
        let container = Container()
        container.register(TransientService.self, name: "named", scope: .unique) { _ in TransientService() }
        return container
    }

    /// A container with three ranked registrations of one named unique service, for resolving the highest-ranked.
    ///
    /// NB: a container of its own, like ``makeNamedContainer()``, whose resolve this one should cost the same.
    public static func makeRankedContainer() -> Container {
        let container = Container()
        for rank in [64, 256, 128] {
            container.register(TransientService.self, name: "ranked", rank: rank, scope: .unique) { _ in TransientService() }
        }
        return container
    }

    /// The names under which ``makeCollectionContainer()`` registers its ten services.
    public static let collectionNames = (0..<10).map { "item\($0)" }

    /// A container with ten named singletons of one type, for resolving them all at once.
    ///
    /// NB: a container of its own, so that the other workloads' registry keeps its size and probe lengths.
    public static func makeCollectionContainer() -> Container {
        let container = Container()
        for name in collectionNames {
            container.register(SingletonService.self, name: name, scope: .singleton) { _ in SingletonService() }
        }
        return container
    }
}
