import Patchbay
import PatchbayTesting
import Testing

@Suite struct ContainerTraitTests {
    @Test(.container { c in c.register(Wallet.self) { _ in Wallet(owner: "from the trait") } })
    func theTraitBindsAConfiguredContainerForTheTest() throws {
        #expect(Container.current !== Container.main)
        #expect(try Container.current.resolve(Wallet.self).owner == "from the trait")
        @Injected var wallet: Wallet
        #expect(wallet.owner == "from the trait")
    }

    @Test(.container())
    func theDefaultContainerIsAChildOfMain() {
        #expect(Container.current.parent === Container.main)
    }

    @Test(.isolatedContainer)
    func anIsolatedContainerHasNoParent() {
        #expect(Container.current.parent == nil)
        #expect(Container.current.registrations().isEmpty)
    }

    @Test(.isolatedContainer { c in c.register(Int.self) { _ in 7 } })
    func anIsolatedContainerCanBeConfigured() throws {
        #expect(try Container.current.resolve(Int.self) == 7)
    }

    @Test(.container { c in c.register(Int.self, scope: .singleton) { _ in 1 } }, arguments: 0..<8)
    func parallelTestCasesEachGetTheirOwnContainer(index: Int) throws {
        Container.current.register(String.self) { _ in "case \(index)" }
        #expect(try Container.current.resolve(String.self) == "case \(index)")
        #expect(try Container.main.resolveIfRegistered(String.self) == nil)
    }
}

@Suite(.container { c in c.register(Leaf.self, scope: .singleton) { _ in Leaf() } })
struct ContainerTraitOnASuiteTests {
    static let seen = Counter()

    @Test(arguments: 0..<2)
    func eachTestOfTheSuiteGetsAFreshContainer(index: Int) throws {
        // The singleton is registered in each test's own container.
        _ = try Container.current.resolve(Leaf.self)
        #expect(Container.current.registrations().count == 1)
        Container.current.register(Int.self) { _ in index }
        #expect(try Container.current.resolve(Int.self) == index)
    }
}
