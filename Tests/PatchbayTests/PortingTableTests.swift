import Patchbay
import Synchronization
import Testing

/// A protocol and a class that conforms, for `implements` with and without a name.
protocol Creature: AnyObject {}
final class Hound: Creature {}

/// One test per row of "Porting from Swinject": the Swinject spelling, ported as the row says, gives Swinject's outcome.
@Suite struct PortingTableTests {
    @Test func resolveThrowsWhereSwinjectReturnsNil() throws {
        let container = Container()
        #expect(throws: ResolutionError.self) { try container.resolve(Leaf.self) }
        #expect(try container.resolveIfRegistered(Leaf.self) == nil)
        let optional: Leaf? = try container.resolve()
        #expect(optional == nil)
    }

    @Test func argumentAndArgumentsAreOneSpelling() throws {
        let container = Container()
        container.register(Wallet.self) { (_, owner: String, limit: Int) in Wallet(owner: owner, limit: limit) }
        #expect(try container.resolve(Wallet.self, arguments: "ada", 5) == Wallet(owner: "ada", limit: 5))
    }

    @Test func transientIsUnique() throws {
        let container = Container()
        container.register(Leaf.self, scope: .unique) { _ in Leaf() }
        #expect(try container.resolve(Leaf.self) !== container.resolve(Leaf.self))
    }

    @Test func aUniqueFactoryReenteredFromACompletionThrowsWhereSwinjectRunsItAgain() throws {
        let container = Container()
        container.register(Owner.self, scope: .unique) { r in Owner(pet: try r.resolve(Pet.self)) }
        container.register(Pet.self, scope: .unique) { _ in Pet() }
            .initCompleted { r, pet in pet.owner = try r.resolve(Owner.self) }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Owner.self) }
        #expect(error?.code == .circularDependency)
        // The row's fix: in the default graph scope the pair is wired both ways.
        let graph = Container()
        graph.register(Owner.self) { r in Owner(pet: try r.resolve(Pet.self)) }
        graph.register(Pet.self) { _ in Pet() }
            .initCompleted { r, pet in pet.owner = try r.resolve(Owner.self) }
        let owner = try graph.resolve(Owner.self)
        #expect(owner.pet.owner === owner)
    }

    @Test func containerScopeIsSingletonAndAChildSeesTheParentsOne() throws {
        let parent = Container()
        parent.register(Leaf.self, scope: .singleton) { _ in Leaf() }
        let child = Container(parent: parent)
        #expect(try child.resolve(Leaf.self) === parent.resolve(Leaf.self))
    }

    @Test func weakScopeIsShared() throws {
        let container = Container()
        container.register(Leaf.self, scope: .shared) { _ in Leaf() }
        let held = try container.resolve(Leaf.self)
        #expect(try container.resolve(Leaf.self) === held)
    }

    @Test func graphScopeIsTheDefaultAndSharesWithinOneResolve() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        container.register(Pair.self) { r in Pair(first: try r.resolve(Leaf.self), second: try r.resolve(Leaf.self)) }
        let pair = try container.resolve(Pair.self)
        #expect(pair.first === pair.second)
        #expect(try container.resolve(Pair.self).first !== pair.first)
    }

    @Test func aStorageFactoryIsACustomScope() throws {
        let session = CustomScope(name: "session")
        let container = Container()
        container.register(Leaf.self, scope: .custom(session)) { _ in Leaf() }
        let first = try container.resolve(Leaf.self)
        #expect(try container.resolve(Leaf.self) === first)
        session.reset()
        #expect(try container.resolve(Leaf.self) !== first)
    }

    @Test func resetObjectScopeResetsTheParentsToo() throws {
        let session = CustomScope(name: "session")
        let parent = Container()
        parent.register(Leaf.self, scope: .custom(session)) { _ in Leaf() }
        let child = Container(parent: parent)
        let first = try child.resolve(Leaf.self)
        child.reset(.custom(session), includingParents: true)
        #expect(try child.resolve(Leaf.self) !== first)
    }

    @Test func resetObjectScopeContainerMakesNewSingletons() throws {
        let parent = Container()
        parent.register(Leaf.self, scope: .singleton) { _ in Leaf() }
        let child = Container(parent: parent)
        let first = try child.resolve(Leaf.self)
        child.reset(.singleton, includingParents: true)
        let second = try child.resolve(Leaf.self)
        #expect(second !== first)
        #expect(try parent.resolve(Leaf.self) === second)
    }

    @Test func hasAnyRegistrationLooksAtThatNameOnly() throws {
        let container = Container()
        container.register(Leaf.self, name: "a") { _ in Leaf() }
        #expect(container.hasAnyRegistration(Leaf.self, name: "a"))
        #expect(!container.hasAnyRegistration(Leaf.self, name: nil))
        #expect(container.hasRegistrationUnderAnyName(Leaf.self))
    }

    @Test func lazyInstanceIsGet() throws {
        let container = Container()
        let built = Counter()
        container.register(Leaf.self) { _ in
            built.increment()
            return Leaf()
        }
        let lazy = try container.resolve(Lazy<Leaf>.self)
        #expect(built.count == 0)
        #expect(try lazy.get() === lazy.instance)
        #expect(built.count == 1)
    }

    @Test func providerInstanceIsGet() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        let provider = try container.resolve(Provider<Leaf>.self)
        #expect(try provider.get() !== provider.instance)
    }

    @Test func initCompletedRunsInOrder() throws {
        let container = Container()
        let order = OrderLog()
        container.register(Leaf.self) { _ in Leaf() }
            .initCompleted { _, _ in order.append("first") }
            .initCompleted { _, _ in order.append("second") }
        _ = try container.resolve(Leaf.self)
        #expect(order.entries == ["first", "second"])
    }

    @Test func synchronizeIsNotNeeded() async throws {
        let container = Container()
        let built = Counter()
        container.register(Leaf.self, scope: .singleton) { _ in
            built.increment()
            return Leaf()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { _ = try? container.resolve(Leaf.self) } }
        }
        #expect(built.count == 1)
    }

    @Test func defaultObjectScopeIsDefaultScope() throws {
        let container = Container(defaultScope: .unique)
        container.register(Leaf.self) { _ in Leaf() }
        #expect(try container.resolve(Leaf.self) !== container.resolve(Leaf.self))
        #expect(Container(parent: container).defaultScope == .unique)
    }

    @Test func anAssemblerIsAssemblies() throws {
        let container = Container(assemblies: [LeafAssembly()])
        #expect(try container.resolve(Leaf.self) === container.resolve(Leaf.self))
    }

    @Test func removeAllIsANewContainer() throws {
        let container = Container()
        container.register(Leaf.self) { _ in Leaf() }
        #expect(try Container().resolveIfRegistered(Leaf.self) == nil)
    }

    @Test func allAndResolveAllHaveNoSwinjectCounterpart() throws {
        let container = Container()
        container.register(Leaf.self, name: "a") { _ in Leaf() }
        container.register(Leaf.self, name: "b") { _ in Leaf() }
        #expect(try container.resolveAll(Leaf.self).count == 2)
    }

    @Test func implementsForwardsUnnamedWhateverTheRegistrationsName() throws {
        let container = Container()
        container.register(Hound.self, name: "rex") { _ in Hound() }
            .implements((any Creature).self)
        #expect(try container.resolve((any Creature).self) is Hound)
        #expect(try container.resolveIfRegistered((any Creature).self, name: "rex") == nil)
    }

    @Test func implementsWithANameForwardsUnderThatName() throws {
        let container = Container()
        container.register(Hound.self) { _ in Hound() }
            .implements((any Creature).self, name: "pet")
        #expect(try container.resolve((any Creature).self, name: "pet") is Hound)
        #expect(try container.resolveIfRegistered((any Creature).self) == nil)
    }

    @Test func aClosureReturningAnInstanceIsRegisterInstance() throws {
        let container = Container()
        let config = AppConfig(baseURL: "https://example.com")
        container.register(AppConfig.self, instance: config)
        #expect(try container.resolve(AppConfig.self) == config)
    }

    @MainActor
    @Test func aNonSendableInstanceIsAMainActorInstance() throws {
        let container = Container()
        let window = Window(title: "w")
        container.registerMainActor(Window.self, instance: window)
        #expect(try container.resolve(Window.self) === window)
    }

    @Test func autoregisterWithAnArgumentKeepsItsSpelling() throws {
        let container = Container()
        container.register((any NetworkClient).self) { _ in StubNetworking() }
        container.autoregister(Quote.self, argument: String.self, initializer: Quote.init(amount:networking:))
        #expect(try container.resolve(Quote.self, arguments: "3").amount == "3")
    }

    @Test func theResolveOperatorIsTryResolve() throws {
        let container = Container()
        container.register((any NetworkClient).self) { _ in StubNetworking(body: "op") }
        container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
        // `r ~> NetworkClient.self` and `r ~> (Wallet.self, argument: "ada")`:
        container.register(Pair.self) { r in
            _ = try r.resolve((any NetworkClient).self)
            _ = try r.resolve(Wallet.self, arguments: "ada")
            return Pair(first: Leaf(), second: Leaf())
        }
        #expect(throws: Never.self) { try container.resolve(Pair.self) }
    }

    @MainActor
    @Test func storyboardInitCompletedIsAMainActorInitCompleted() throws {
        let container = WeatherApp.makeContainer()
        // `storyboard.instantiateViewController(…)` becomes a resolve from the container.
        let controller = try container.resolve(WeatherTableViewController.self)
        #expect(controller.weatherFetcher != nil)
    }
}

/// Two references to one service type, to see graph-scope sharing.
final class Pair {
    let first: Leaf
    let second: Leaf
    init(first: Leaf, second: Leaf) {
        self.first = first
        self.second = second
    }
}

/// Registers one singleton leaf.
struct LeafAssembly: Assembly {
    func assemble(container: Container) {
        container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
    }
}

/// An owner built by initializer, and its pet, which points back by a property.
final class Owner {
    let pet: Pet
    init(pet: Pet) { self.pet = pet }
}

final class Pet {
    weak var owner: Owner?
}

/// The order in which completions ran.
final class OrderLog: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ entry: String) { log.withLock { $0.append(entry) } }
    var entries: [String] { log.withLock { $0 } }
}
