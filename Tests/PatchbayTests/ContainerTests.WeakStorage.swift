import Patchbay
import Testing

extension ContainerTests {
    /// The `shared` scope: kept only while something else holds it.
    @Suite struct WeakStorage {
        @Test func sharesTheInstanceWhileSomeoneHoldsIt() throws {
            let container = Container()
            container.register(Leaf.self, scope: .shared) { _ in Leaf() }
            let held = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === held)
        }

        @Test func makesANewInstanceOnceNobodyHoldsIt() throws {
            let container = Container()
            container.register(Leaf.self, scope: .shared) { _ in Leaf() }
            weak var first: Leaf?
            do {
                let held = try container.resolve(Leaf.self)
                first = held
                #expect(try container.resolve(Leaf.self) === held)
            }
            #expect(first == nil)
            let second = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === second)
        }

        @Test func theContainerDoesNotKeepTheInstanceAlive() throws {
            let container = Container()
            container.register(Leaf.self, scope: .shared) { _ in Leaf() }
            weak var instance: Leaf?
            do {
                instance = try container.resolve(Leaf.self)
            }
            #expect(instance == nil)
        }

        @Test func worksThroughAProtocolTypeHoldingAClass() throws {
            let container = Container()
            container.register((any PriceFetching).self, scope: .shared) { _ in LabelledFetcher(label: "x") }
            let held = try container.resolve((any PriceFetching).self)
            #expect(try container.resolve((any PriceFetching).self) === held)
        }

        @Test func aValueTypeCannotBeHeldWeaklyAndIsMadeEachTime() throws {
            let container = Container()
            let built = Counter()
            container.register(Wallet.self, scope: .shared) { _ in
                Wallet(owner: "v\(built.increment())")
            }
            #expect(try container.resolve(Wallet.self).owner == "v1")
            #expect(try container.resolve(Wallet.self).owner == "v2")
        }

        @Test func resetForgetsTheInstanceEvenWhileHeld() throws {
            let container = Container()
            container.register(Leaf.self, scope: .shared) { _ in Leaf() }
            let held = try container.resolve(Leaf.self)
            container.reset(.shared, includingParents: false)
            #expect(try container.resolve(Leaf.self) !== held)
        }
    }
}
