@testable import Patchbay
import Testing

extension ContainerTests {
    /// A `Lazy` belongs to the graph it was made in, whichever graph came
    /// first: each of several resolutions, alive at once, has its own.
    @Suite struct LazySeveralGraphs {
        private func container() -> Container {
            let container = Container()
            container.register(Leaf.self, scope: .graph) { _ in Leaf() }
            container.register(LazyHolder.self) { r in
                LazyHolder(leaf: try r.resolve(Leaf.self), lazy: try r.resolve(Lazy<Leaf>.self))
            }
            return container
        }

        @Test(arguments: [2, 3, 5])
        func eachOfSeveralGraphsLazyReturnsItsOwnInstance(graphs: Int) throws {
            let container = container()
            let holders = try (0..<graphs).map { _ in try container.resolve(LazyHolder.self) }

            // Read last to first, so that neither the first graph nor the latest is the one every Lazy sees.
            for holder in holders.reversed() {
                #expect(try holder.lazy.get() === holder.leaf)
            }
            #expect(Set(holders.map { ObjectIdentifier($0.leaf) }).count == graphs, "each resolution is a graph of its own")
        }

        @Test func lazyOfSeveralGraphsReadInsideAnotherResolutionEachReturnItsOwn() throws {
            let container = container()
            let first = try container.resolve(LazyHolder.self)
            let second = try container.resolve(LazyHolder.self)
            let seenFirst = WeakReference<Leaf>()
            let seenSecond = WeakReference<Leaf>()
            // NB: the factory runs on this thread, inside the resolve below.
            nonisolated(unsafe) let earlier = [first, second]
            container.register(LeftBranch.self) { r in
                // A Lazy of its own gives this resolution a graph object too, current while the earlier ones are read.
                _ = try r.resolve(Lazy<Leaf>.self)
                seenFirst.object = try earlier[0].lazy.get()
                seenSecond.object = try earlier[1].lazy.get()
                return LeftBranch(leaf: try r.resolve())
            }

            let branch = try container.resolve(LeftBranch.self)

            #expect(seenFirst.object === first.leaf)
            #expect(seenSecond.object === second.leaf)
            #expect(branch.leaf !== first.leaf && branch.leaf !== second.leaf)
        }
    }
}
