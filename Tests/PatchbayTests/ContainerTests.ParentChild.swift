@testable import Patchbay
import Testing

extension ContainerTests {
    @Suite struct ParentChild {
        @Test func aChildFallsBackToItsParent() throws {
            let parent = Container()
            parent.register(Wallet.self) { _ in Wallet(owner: "parent") }
            let child = Container(parent: parent)
            #expect(try child.resolve(Wallet.self).owner == "parent")
        }

        @Test func aChildRegistrationOverridesTheParents() throws {
            let parent = Container()
            parent.register(Wallet.self) { _ in Wallet(owner: "parent") }
            let child = Container(parent: parent)
            child.register(Wallet.self) { _ in Wallet(owner: "child") }
            #expect(try child.resolve(Wallet.self).owner == "child")
            #expect(try parent.resolve(Wallet.self).owner == "parent")
        }

        @Test func theParentNeverSeesTheChildsRegistrations() {
            let parent = Container()
            let child = Container(parent: parent)
            child.register(Wallet.self) { _ in Wallet(owner: "child") }
            #expect(throws: ResolutionError.self) { try parent.resolve(Wallet.self) }
        }

        @Test func grandchildrenWalkTheWholeChain() throws {
            let root = Container()
            root.register(Wallet.self) { _ in Wallet(owner: "root") }
            let grandchild = Container(parent: Container(parent: root))
            #expect(try grandchild.resolve(Wallet.self).owner == "root")
        }

        @Test func aParentSingletonResolvedThroughAChildIsTheParentsInstance() throws {
            let parent = Container()
            parent.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            let first = Container(parent: parent)
            let second = Container(parent: parent)
            let leaf = try first.resolve(Leaf.self)
            #expect(try second.resolve(Leaf.self) === leaf)
            #expect(try parent.resolve(Leaf.self) === leaf)
        }

        @Test func aParentSingletonBuildsFromTheParentNotTheChildsOverrides() throws {
            let parent = Container()
            parent.register((any NetworkClient).self) { _ in StubNetworking(body: "real") }
            parent.register(BitcoinPriceFetcher.self, scope: .singleton) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let child = Container(parent: parent)
            child.register((any NetworkClient).self) { _ in StubNetworking(body: "mock") }
            #expect(try child.resolve(BitcoinPriceFetcher.self).price() == "real")
        }

        @Test(arguments: [Scope.unique, .graph])
        func aParentRegistrationThatKeepsNothingBuildsWithTheChildsOverrides(scope: Scope) throws {
            let parent = Container()
            parent.register((any NetworkClient).self) { _ in StubNetworking(body: "real") }
            parent.register(BitcoinPriceFetcher.self, scope: scope) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let child = Container(parent: parent)
            child.register((any NetworkClient).self) { _ in StubNetworking(body: "mock") }
            #expect(try child.resolve(BitcoinPriceFetcher.self).price() == "mock")
            #expect(try parent.resolve(BitcoinPriceFetcher.self).price() == "real")
        }

        @Test func aChildSingletonIsSeparateFromTheParents() throws {
            let parent = Container()
            parent.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            let child = Container(parent: parent)
            child.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            #expect(try child.resolve(Leaf.self) !== parent.resolve(Leaf.self))
            #expect(try child.resolve(Leaf.self) === child.resolve(Leaf.self))
        }

        @Test func graphScopeSpansParentAndChildInOneResolve() throws {
            let parent = Container()
            parent.register(Leaf.self) { _ in Leaf() }
            parent.register(LeftBranch.self) { r in LeftBranch(leaf: try r.resolve()) }
            let child = Container(parent: parent)
            child.register(RightBranch.self) { r in RightBranch(leaf: try r.resolve()) }
            child.register(Trunk.self) { r in Trunk(left: try r.resolve(), right: try r.resolve()) }
            let trunk = try child.resolve(Trunk.self)
            #expect(trunk.left.leaf === trunk.right.leaf)
        }

        @Test func aChildsResetReachesItsParentsInstancesOnlyWhenAskedTo() throws {
            let parent = Container()
            parent.register(Leaf.self, scope: .cached) { _ in Leaf() }
            let child = Container(parent: parent)
            child.register(Leaf.self, name: "child", scope: .cached) { _ in Leaf() }
            let leaf = try child.resolve(Leaf.self)
            let own = try child.resolve(Leaf.self, name: "child")
            child.reset(.cached, includingParents: false)
            #expect(try child.resolve(Leaf.self) === leaf, "the parent's instance stays")
            #expect(try child.resolve(Leaf.self, name: "child") !== own)
            child.reset(.cached, includingParents: true)
            #expect(try child.resolve(Leaf.self) !== leaf, "as Swinject's resetObjectScope does")
        }

        @Test(arguments: [false, true])
        func aChildsResetOfACustomScopeReachesWhatItSays(includingParents: Bool) throws {
            let request = CustomScope(name: "request")
            let parent = Container()
            parent.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
            let child = Container(parent: parent)
            child.register(Leaf.self, name: "child", scope: .custom(request)) { _ in Leaf() }
            let leaf = try child.resolve(Leaf.self)
            let own = try child.resolve(Leaf.self, name: "child")
            child.reset(.custom(request), includingParents: includingParents)
            #expect(request.count == (includingParents ? 0 : 1), "the parent's instance stays unless asked")
            #expect(try child.resolve(Leaf.self, name: "child") !== own)
            #expect((try child.resolve(Leaf.self) === leaf) == !includingParents)
        }

        @Test func aChildInheritsTheParentsDefaultScopeUnlessGivenOne() {
            let parent = Container(defaultScope: .singleton)
            #expect(Container(parent: parent).defaultScope == .singleton)
            #expect(Container(parent: parent, defaultScope: .unique).defaultScope == .unique)
            #expect(Container().defaultScope == .graph)
        }

        @Test func notRegisteredListsAlternativesFromTheWholeChain() {
            let parent = Container()
            parent.register(Wallet.self, name: "parent") { _ in Wallet(owner: "p") }
            let child = Container(parent: parent)
            child.register(Wallet.self, name: "child") { _ in Wallet(owner: "c") }
            let error = #expect(throws: ResolutionError.self) { try child.resolve(Wallet.self) }
            #expect(error?.registeredAlternatives.compactMap(\.name) == ["child", "parent"])
        }
    }
}
