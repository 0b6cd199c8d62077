@preconcurrency import Swinject
import Patchbay
import Workload

/// The same workload wired into each container under test.
enum Containers {
    static let patchbay: Patchbay.Container = PatchbayWorkload.makeContainer()
    /// Ten named singletons of one type, for `All`; Swinject has no counterpart.
    static let patchbayCollection: Patchbay.Container = PatchbayWorkload.makeCollectionContainer()

    // NB: Swinject's containers are not Sendable. Each benchmark that uses one
    // from several threads goes through `swinjectSynchronized`, Swinject's own
    // locking resolver; the others use it from one thread at a time.
    nonisolated(unsafe) static let swinject: Swinject.Container = {
        let container = Swinject.Container()
        // NB: Swinject resolves to optionals; everything the factories ask for is registered.
        container.register(SingletonService.self) { _ in SingletonService() }.inObjectScope(.container)
        container.register(SingletonValue.self) { _ in SingletonValue() }.inObjectScope(.container)
        container.register(TransientService.self) { _ in TransientService() }.inObjectScope(.transient)
        container.register(ArgumentService.self) { (_, id: Int) in ArgumentService(id: id) }
            .inObjectScope(.transient)
        container.register(TransientLeaf.self) { _ in TransientLeaf() }.inObjectScope(.transient)
        container.register(SingletonLeaf.self) { _ in SingletonLeaf() }.inObjectScope(.container)
        container.register(MidA.self) { r in
            MidA(transient: r.resolve(TransientLeaf.self)!, singleton: r.resolve(SingletonLeaf.self)!)
        }.inObjectScope(.graph)
        container.register(MidB.self) { r in
            MidB(transient: r.resolve(TransientLeaf.self)!, singleton: r.resolve(SingletonLeaf.self)!)
        }.inObjectScope(.graph)
        container.register(Root.self) { r in
            Root(a: r.resolve(MidA.self)!, b: r.resolve(MidB.self)!)
        }.inObjectScope(.graph)
        return container
    }()

    nonisolated(unsafe) static let swinjectSynchronized: any Swinject.Resolver = swinject.synchronize()

    static let dictionary: DictionaryContainer = {
        let container = DictionaryContainer()
        container.registerSingleton(SingletonService.self, SingletonService())
        container.registerSingleton(SingletonValue.self, SingletonValue())
        container.registerSingleton(SingletonLeaf.self, SingletonLeaf())
        container.register(TransientService.self) { _ in TransientService() }
        container.register(ArgumentService.self) { (_, id: Int) in ArgumentService(id: id) }
        container.register(TransientLeaf.self) { _ in TransientLeaf() }
        container.register(MidA.self) { c in
            MidA(transient: c.resolve(TransientLeaf.self)!, singleton: c.resolve(SingletonLeaf.self)!)
        }
        container.register(MidB.self) { c in
            MidB(transient: c.resolve(TransientLeaf.self)!, singleton: c.resolve(SingletonLeaf.self)!)
        }
        container.register(Root.self) { c in Root(a: c.resolve(MidA.self)!, b: c.resolve(MidB.self)!) }
        return container
    }()
}
