@testable import Patchbay
import Testing

extension ContainerTests {
    /// Which instance a `Lazy` returns: in the graph it was made in while that graph's instances live, as Swinject's does.
    @Suite struct LazyGraph {
        /// A graph-scope `Leaf`, and a `Holder` built with it and a `Lazy` of it, in `scope`.
        private func container(leafScope: Scope) -> Container {
            let container = Container()
            container.register(Leaf.self, scope: leafScope) { _ in Leaf() }
            container.register(LazyHolder.self) { r in
                LazyHolder(leaf: try r.resolve(Leaf.self), lazy: try r.resolve(Lazy<Leaf>.self))
            }
            return container
        }

        @Test func inTheGraphScopeItReturnsItsGraphsInstanceAfterTheResolution() throws {
            let container = container(leafScope: .graph)
            let holder = try container.resolve(LazyHolder.self)
            #expect(try holder.lazy.get() === holder.leaf)
        }

        @Test func inTheGraphScopeItReturnsItsGraphsInstanceInsideTheResolution() throws {
            let container = container(leafScope: .graph)
            let readInside = WeakReference<Leaf>()
            container.register(LazyHolder.self) { r in
                LazyHolder(leaf: try r.resolve(Leaf.self), lazy: try r.resolve(Lazy<Leaf>.self))
            }
            .initCompleted { _, holder in readInside.object = try holder.lazy.get() }
            let holder = try container.resolve(LazyHolder.self)
            #expect(readInside.object === holder.leaf)
            #expect(try holder.lazy.get() === holder.leaf)
        }

        @Test func aLazyReadBeforeItsServiceIsResolvedGetsTheInstanceTheGraphMakesNext() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self) { _ in
                built.increment()
                return Leaf()
            }
            container.register(LazyFirst.self) { r in
                let lazy = try r.resolve(Lazy<Leaf>.self)
                let early = try lazy.get()  // inside the resolution: made in the graph, and kept there
                return LazyFirst(early: early, lazy: lazy, leaf: try r.resolve(Leaf.self))
            }
            let first = try container.resolve(LazyFirst.self)
            #expect(first.early === first.leaf)
            #expect(try first.lazy.get() === first.leaf)
            #expect(built.count == 1)
        }

        @Test func onceTheGraphsInstanceIsGoneItBuildsOneInTheSameGraph() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self) { _ in
                built.increment()
                return Leaf()
            }
            container.register(LeftBranch.self) { r in LeftBranch(leaf: try r.resolve()) }
            container.register(LazyPair.self) { r in
                LazyPair(left: try r.resolve(Lazy<LeftBranch>.self), leaf: try r.resolve(Lazy<Leaf>.self))
            }
            let pair = try container.resolve(LazyPair.self)
            #expect(built.count == 0, "nothing in the graph was built yet")
            // Built after the resolution, in its graph: the branch's leaf is then the graph's leaf.
            let left = try pair.left.get()
            #expect(try pair.leaf.get() === left.leaf)
            #expect(built.count == 1)
        }

        @Test func aLazyOfAnotherResolutionSeesThatResolutionsGraphNotTheCurrentOne() throws {
            let container = container(leafScope: .graph)
            let holder = try container.resolve(LazyHolder.self)
            let seen = WeakReference<Leaf>()
            // NB: the factory runs on this thread, inside the resolve below.
            nonisolated(unsafe) let earlier = holder
            container.register(LeftBranch.self) { r in
                seen.object = try earlier.lazy.get()  // a Lazy of the earlier graph, read in this one
                return LeftBranch(leaf: try r.resolve())
            }
            let branch = try container.resolve(LeftBranch.self)
            #expect(seen.object === holder.leaf)
            #expect(branch.leaf !== holder.leaf, "this resolution has a graph of its own")
        }

        @Test func whenNothingHoldsTheGraphsInstanceANewOneIsBuilt() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self) { _ in
                built.increment()
                return Leaf()
            }
            container.register(LazyOnly.self) { r in
                // Resolves the leaf in the graph, then lets it go.
                _ = try r.resolve(Leaf.self)
                return LazyOnly(lazy: try r.resolve(Lazy<Leaf>.self))
            }
            let only = try container.resolve(LazyOnly.self)
            #expect(built.count == 1)
            _ = try only.lazy.get()
            #expect(built.count == 2, "the graph's leaf was released with its resolution")
        }

        @Test func aLazyResolvedAtTheTopLevelBelongsToNoGraph() throws {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            let held = try container.resolve(Leaf.self)
            let lazy = try container.resolve(Lazy<Leaf>.self)
            #expect(lazy.graph == nil)
            #expect(try lazy.get() !== held)
            #expect(try lazy.get() === lazy.get(), "the first value is kept")
        }

        @Test func inTheUniqueScopeItReturnsANewInstance() throws {
            let container = container(leafScope: .unique)
            let holder = try container.resolve(LazyHolder.self)
            #expect(try holder.lazy.get() !== holder.leaf)
            #expect(try holder.lazy.get() === holder.lazy.get())
        }

        @Test func inTheSingletonScopeItReturnsTheSingletonInsideAndAfter() throws {
            let container = container(leafScope: .singleton)
            let holder = try container.resolve(LazyHolder.self)
            #expect(try holder.lazy.get() === holder.leaf)
            #expect(try holder.lazy.get() === container.resolve(Leaf.self))
        }

        @Test func inACustomScopeItReturnsTheScopesInstanceAtItsFirstGet() throws {
            let request = CustomScope(name: "request")
            let container = container(leafScope: .custom(request))
            let holder = try container.resolve(LazyHolder.self)
            request.reset()
            let afterReset = try holder.lazy.get()
            #expect(afterReset !== holder.leaf, "the scope's instance at the first get(), made after the reset")
            #expect(try container.resolve(Leaf.self) === afterReset)
            request.reset()
            #expect(try holder.lazy.get() === afterReset, "kept from the first get()")
        }

        @Test func aProviderMadeInAResolutionResolvesAnewOnEveryCall() throws {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            container.register(ProviderHolder.self) { r in
                ProviderHolder(leaf: try r.resolve(Leaf.self), provider: try r.resolve(Provider<Leaf>.self))
            }
            .initCompleted { _, holder in holder.insideCompletion = try holder.provider.get() }
            let holder = try container.resolve(ProviderHolder.self)
            #expect(holder.insideCompletion === holder.leaf, "inside the resolution, a resolve joins its graph")
            let first = try holder.provider.get()
            #expect(first !== holder.leaf, "after it, each call is a resolution of its own")
            #expect(try holder.provider.get() !== first)
        }

        @Test func aGraphKeepsNoInstanceAliveAndIsReleasedWithItsLazies() throws {
            let released = WeakReference<Leaf>()
            let graph: ObjectGraph
            let container = container(leafScope: .graph)
            do {
                let holder = try container.resolve(LazyHolder.self)
                released.object = holder.leaf
                graph = try #require(holder.lazy.graph)
                #expect(graph.liveCount == 2, "the holder and its leaf")
            }
            #expect(released.object == nil)
            #expect(graph.liveCount == 0)
        }

        @Test func aLazyReadInsideAnotherResolutionLeavesTheThreadAtRest() throws {
            let container = container(leafScope: .graph)
            // NB: the factory runs on this thread, inside the resolve below.
            nonisolated(unsafe) let holder = try container.resolve(LazyHolder.self)
            container.register(LeftBranch.self) { r in
                _ = try holder.lazy.get()
                return LeftBranch(leaf: try r.resolve())
            }
            _ = try container.resolve(LeftBranch.self)
            let state = ResolutionState.current.pointee
            #expect(state.depth == 0 && state.graphCount == 0 && state.graphBase == 0 && state.objectGraph == nil)
        }
    }
}

/// A leaf and a `Lazy` of it, injected in the same resolution.
final class LazyHolder {
    let leaf: Leaf
    let lazy: Lazy<Leaf>
    init(leaf: Leaf, lazy: Lazy<Leaf>) {
        self.leaf = leaf
        self.lazy = lazy
    }
}

/// A `Lazy` read inside its factory, before the leaf itself is resolved.
final class LazyFirst {
    let early: Leaf
    let lazy: Lazy<Leaf>
    let leaf: Leaf
    init(early: Leaf, lazy: Lazy<Leaf>, leaf: Leaf) {
        self.early = early
        self.lazy = lazy
        self.leaf = leaf
    }
}

/// Two `Lazy` values of one graph, neither read during it.
final class LazyPair {
    let left: Lazy<LeftBranch>
    let leaf: Lazy<Leaf>
    init(left: Lazy<LeftBranch>, leaf: Lazy<Leaf>) {
        self.left = left
        self.leaf = leaf
    }
}

/// Holds only a `Lazy`.
final class LazyOnly {
    let lazy: Lazy<Leaf>
    init(lazy: Lazy<Leaf>) { self.lazy = lazy }
}

/// A leaf and a `Provider` of it, injected in the same resolution.
final class ProviderHolder {
    let leaf: Leaf
    let provider: Provider<Leaf>
    var insideCompletion: Leaf?
    init(leaf: Leaf, provider: Provider<Leaf>) {
        self.leaf = leaf
        self.provider = provider
    }
}
