@testable import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Scopes {
        @Test func graphIsTheDefaultScope() {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            #expect(container.registrations().first?.scope == .graph)
        }

        @Test func theDefaultScopeCanBeSetPerContainer() throws {
            let container = Container(defaultScope: .singleton)
            container.register(Leaf.self) { _ in Leaf() }
            #expect(container.registrations().first?.scope == .singleton)
            #expect(try container.resolve(Leaf.self) === container.resolve(Leaf.self))
        }

        @Test func uniqueMakesANewInstanceEveryTime() throws {
            let container = Container()
            container.register(Leaf.self, scope: .unique) { _ in Leaf() }
            container.register(LeftBranch.self) { r in LeftBranch(leaf: try r.resolve(Leaf.self)) }
            container.register(RightBranch.self) { r in RightBranch(leaf: try r.resolve(Leaf.self)) }
            container.register(Trunk.self) { r in Trunk(left: try r.resolve(), right: try r.resolve()) }
            #expect(try container.resolve(Leaf.self) !== container.resolve(Leaf.self))
            let trunk = try container.resolve(Trunk.self)
            #expect(trunk.left.leaf !== trunk.right.leaf)
        }

        @Test func graphSharesOneInstanceWithinATopLevelResolve() throws {
            let container = Container()
            container.register(Leaf.self, scope: .graph) { _ in Leaf() }
            container.register(LeftBranch.self) { r in LeftBranch(leaf: try r.resolve(Leaf.self)) }
            container.register(RightBranch.self) { r in RightBranch(leaf: try r.resolve(Leaf.self)) }
            container.register(Trunk.self) { r in Trunk(left: try r.resolve(), right: try r.resolve()) }
            let first = try container.resolve(Trunk.self)
            let second = try container.resolve(Trunk.self)
            #expect(first.left.leaf === first.right.leaf)
            #expect(first.left.leaf !== second.left.leaf)
            #expect(try container.resolve(Leaf.self) !== container.resolve(Leaf.self))
        }

        @Test func aGraphInstanceFromAContainerDroppedMidResolveLivesUntilTheGraphEnds() throws {
            let container = Container()
            let child = WeakReference<Container>()
            let registration = WeakReference<Patchbay.Registration>()
            let kept = WeakReference<Leaf>()
            container.register(LeftBranch.self) { _ in
                let temporary = Container()
                temporary.register(Leaf.self, scope: .graph) { _ in Leaf() }
                child.object = temporary
                registration.object = temporary.registry.current.first
                // Resolved inside the outer graph, so the graph keeps this instance until it ends.
                let leaf = try temporary.resolve(Leaf.self)
                kept.object = leaf
                return LeftBranch(leaf: leaf)
            }
            container.register(Trunk.self) { r in
                let left = try r.resolve(LeftBranch.self)
                // Its container is gone, but the graph still needs the registration to destroy its copy.
                #expect(child.object == nil)
                #expect(registration.object != nil)
                return Trunk(left: left, right: RightBranch(leaf: Leaf()))
            }
            var trunk: Trunk? = try container.resolve(Trunk.self)
            #expect(registration.object == nil, "the graph let the registration go when it ended")
            #expect(trunk?.left.leaf === kept.object)
            trunk = nil
            #expect(kept.object == nil, "the graph released its copy when it ended")
        }

        @Test func aGraphInstanceWhoseDeinitResolvesIsDestroyedOnceWhenTheGraphEnds() throws {
            let container = Container()
            let reference = WeakReference<Container>()
            reference.object = container
            let releases = Counter()
            container.register(Leaf.self, scope: .unique) { _ in Leaf() }
            for name in ["first", "second"] {
                container.register(ResolvesWhenReleased.self, name: name, scope: .graph) { _ in
                    ResolvesWhenReleased(container: reference, releases: releases)
                }
            }
            // Only the graph keeps these two, so both go as it ends, and each deinit resolves.
            container.register(LeftBranch.self) { r in
                _ = try r.resolve(ResolvesWhenReleased.self, name: "first")
                _ = try r.resolve(ResolvesWhenReleased.self, name: "second")
                return LeftBranch(leaf: try r.resolve(Leaf.self))
            }
            _ = try container.resolve(LeftBranch.self)
            #expect(releases.count == 2)
            _ = try container.resolve(LeftBranch.self)
            #expect(releases.count == 4)
        }

        @Test func graphBuildsACombinedServiceOnceForBothItsProtocols() throws {
            let container = Container()
            let built = Counter()
            container.register(BitcoinPriceFetcher.self) { _ in
                built.increment()
                return BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceFetching).self)
            .implements((any PriceUpdating).self)
            container.register(PriceViewModel.self) { r in try PriceViewModel(resolving: r) }
            let viewModel = try container.resolve(PriceViewModel.self)
            #expect(built.count == 1)
            #expect(viewModel.fetching === viewModel.updating)
        }

        @Test func singletonMakesOneInstanceUntilReset() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self, scope: .singleton) { _ in
                built.increment()
                return Leaf()
            }
            let first = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === first)
            #expect(built.count == 1)
            container.reset(.singleton, includingParents: true)
            #expect(try container.resolve(Leaf.self) !== first)
            #expect(built.count == 2)
        }

        @Test func aSingletonWhoseFactoryThrowsIsTriedAgain() throws {
            let container = Container()
            let attempts = Counter()
            container.register(Leaf.self, scope: .singleton) { _ in
                if attempts.increment() == 1 { throw FactoryFailure(reason: "first") }
                return Leaf()
            }
            #expect(throws: ResolutionError.self) { try container.resolve(Leaf.self) }
            let leaf = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === leaf)
            #expect(attempts.count == 2)
        }

        @Test func cachedKeepsItsInstanceUntilReset() throws {
            let container = Container()
            container.register(Leaf.self, scope: .cached) { _ in Leaf() }
            let first = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === first)
            container.reset(.cached, includingParents: false)
            let second = try container.resolve(Leaf.self)
            #expect(second !== first)
            #expect(try container.resolve(Leaf.self) === second)
        }

        @Test func resettingCachedLeavesOtherScopesAlone() throws {
            let container = Container()
            container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            container.register(LeftBranch.self, scope: .cached) { r in LeftBranch(leaf: try r.resolve()) }
            let leaf = try container.resolve(Leaf.self)
            let branch = try container.resolve(LeftBranch.self)
            container.reset(.cached, includingParents: false)
            #expect(try container.resolve(Leaf.self) === leaf)
            #expect(try container.resolve(LeftBranch.self) !== branch)
        }

        @Test func resetReleasesTheCachedInstance() throws {
            let container = Container()
            container.register(Leaf.self, scope: .cached) { _ in Leaf() }
            weak var released: Leaf?
            do {
                released = try container.resolve(Leaf.self)
            }
            #expect(released != nil)
            container.reset(.cached, includingParents: false)
            #expect(released == nil)
        }

        @Test func eachScopeHasOneName() {
            #expect(Scope.allScopes.map(\.description) == ["unique", "graph", "shared", "cached", "singleton"])
            #expect(Set(Scope.allScopes).count == Scope.allScopes.count)
        }

        @Test func theScopeCanBeSetAfterRegistering() throws {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }.scope(.singleton)
            #expect(try container.resolve(Leaf.self) === container.resolve(Leaf.self))
        }

        @Test func instancesAreReleasedWithTheirContainer() throws {
            weak var singleton: Leaf?
            do {
                let container = Container()
                container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
                singleton = try container.resolve(Leaf.self)
                #expect(singleton != nil)
            }
            #expect(singleton == nil)
        }
    }
}
