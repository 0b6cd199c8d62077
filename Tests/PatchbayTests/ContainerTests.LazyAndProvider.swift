import Patchbay
import Testing

extension ContainerTests {
    @Suite struct LazyAndProvider {
        @Test func lazyResolvesOnceOnFirstUse() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self, scope: .unique) { _ in
                built.increment()
                return Leaf()
            }
            let lazy = try container.resolve(Lazy<Leaf>.self)
            #expect(built.count == 0)
            let first = try lazy.get()
            #expect(lazy.instance === first)
            #expect(built.count == 1)
        }

        @Test func providerResolvesOnEveryCall() throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self, scope: .unique) { _ in
                built.increment()
                return Leaf()
            }
            let provider = try container.resolve(Provider<Leaf>.self)
            #expect(built.count == 0)
            #expect(try provider.get() !== provider.instance)
            #expect(built.count == 2)
        }

        @Test func aProviderFollowsItsServicesScope() throws {
            let container = Container()
            container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            let provider = try container.resolve(Provider<Leaf>.self)
            #expect(try provider.get() === container.resolve(Leaf.self))
        }

        @Test func namesAndArgumentsArePassedOn() throws {
            let container = Container()
            container.register(Wallet.self, name: "savings") { (_, owner: String, limit: Int) in
                Wallet(owner: owner, limit: limit)
            }
            let lazy = try container.resolve(Lazy<Wallet>.self, name: "savings", arguments: "ada", 5)
            let provider = try container.resolve(Provider<Wallet>.self, name: "savings", arguments: "grace", 7)
            #expect(try lazy.get() == Wallet(owner: "ada", limit: 5))
            #expect(try provider.get() == Wallet(owner: "grace", limit: 7))
        }

        @Test func resolvingOneForAnUnregisteredServiceFailsAtOnceNamingTheService() {
            let container = Container()
            container.register(Wallet.self, name: "savings") { _ in Wallet(owner: "x") }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(Lazy<Wallet>.self) }
            #expect(error?.code == .notRegistered)
            #expect(error?.requested.description == "Wallet")
            #expect(error?.registeredAlternatives.map(\.description) == [#"Wallet(name: "savings")"#])
            let providerError = #expect(throws: ResolutionError.self) {
                try container.resolve(Provider<Wallet>.self, arguments: 1)
            }
            #expect(providerError?.requested.description == "Wallet(arguments: Int)")
        }

        @Test func resolveIfRegisteredGivesOneOnlyWhenTheServiceIsRegistered() throws {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            #expect(try container.resolveIfRegistered(Lazy<Leaf>.self) != nil)
            #expect(try container.resolveIfRegistered(Provider<Leaf>.self) != nil)
            #expect(try container.resolveIfRegistered(Lazy<Wallet>.self) == nil)
            let optional: Provider<Wallet>? = try container.resolve()
            #expect(optional == nil)
        }

        @Test func autoregistrationInjectsThem() throws {
            let container = Container()
            let wallets = Counter()
            container.register(Wallet.self) { _ in
                wallets.increment()
                return Wallet(owner: "ada")
            }
            container.register(Leaf.self, scope: .unique) { _ in Leaf() }
            container.autoregister(Deferring.self, initializer: Deferring.init)
            let deferring = try container.resolve(Deferring.self)
            #expect(wallets.count == 0)
            #expect(try deferring.wallet.get().owner == "ada")
            #expect(try deferring.leaves.get() !== deferring.leaves.get())
            #expect(wallets.count == 1)
        }

        @Test func aRegistrationOfTheWrapperItselfWins() throws {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            container.register(Provider<Leaf>.self) { r in try r.resolve(Provider<Leaf>.self, name: "inner") }
            container.register(Leaf.self, name: "inner", scope: .singleton) { _ in Leaf() }
            #expect(try container.resolve(Provider<Leaf>.self).get() === container.resolve(Leaf.self, name: "inner"))
        }

        @Test func aRegistrationOfTheWrapperMadeAfterItWasResolvedOnDemandWinsFromThenOn() throws {
            let parent = Container()
            parent.register(Leaf.self) { _ in Leaf() }
            parent.register(Leaf.self, name: "inner", scope: .singleton) { _ in Leaf() }
            let child = Container(parent: parent)
            let made = try child.resolve(Provider<Leaf>.self)  // made on demand, and its maker kept by the child
            #expect(try made.get() !== child.resolve(Leaf.self, name: "inner"))
            parent.register(Provider<Leaf>.self) { r in try r.resolve(Provider<Leaf>.self, name: "inner") }
            #expect(try child.resolve(Provider<Leaf>.self).get() === child.resolve(Leaf.self, name: "inner"))
        }

        @Test func lazyBreaksACycleOfInitializers() throws {
            let container = Container()
            container.register(LazyPeerA.self, scope: .singleton) { r in LazyPeerA(b: try r.resolve()) }
            container.register(LazyPeerB.self, scope: .singleton) { r in LazyPeerB(a: try r.resolve()) }
            let a = try container.resolve(LazyPeerA.self)
            #expect(try a.b.a.get() === a)
        }

        @Test func theyHoldTheirContainerWeaklyAndSaySoWhenItIsGone() throws {
            var container: Container? = Container()
            container?.register(Leaf.self) { _ in Leaf() }
            let lazy = try #require(try container?.resolve(Lazy<Leaf>.self))
            let provider = try #require(try container?.resolve(Provider<Leaf>.self))
            container = nil
            let error = #expect(throws: ResolutionError.self) { try lazy.get() }
            #expect(error?.code == .containerReleased)
            #expect(
                error?.description.hasPrefix(
                    "Cannot resolve Leaf: the container it was to be resolved from has been released.") == true)
            #expect(throws: ResolutionError.self) { try provider.get() }
        }

        @Test func verifyRecordsTheServiceBehindThem() throws {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            container.register(Leaf.self, scope: .unique) { _ in Leaf() }
            container.autoregister(Deferring.self, initializer: Deferring.init)
            let graph = try container.verify()
            #expect(graph.edges.map(\.description) == ["Deferring -> Leaf", "Deferring -> Wallet"])
        }
    }
}

/// Two singletons that need each other, one of them through a `Lazy`.
final class LazyPeerA {
    let b: LazyPeerB
    init(b: LazyPeerB) { self.b = b }
}

final class LazyPeerB {
    let a: Lazy<LazyPeerA>
    init(a: Lazy<LazyPeerA>) { self.a = a }
}
