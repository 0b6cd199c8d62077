import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Registration {
        @Test func resolvesTheServiceItsFactoryBuilds() throws {
            let container = Container()
            container.register((any NetworkClient).self) { _ in StubNetworking(body: "pong") }
            let networking = try container.resolve((any NetworkClient).self)
            #expect(try networking.get("/ping") == "pong")
        }

        @Test func factoryResolvesItsDependenciesFromTheResolverItReceives() throws {
            let container = Container()
            container.register((any NetworkClient).self) { _ in StubNetworking(body: "7") }
            container.register((any PriceFetching).self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            #expect(try container.resolve((any PriceFetching).self).price() == "7")
        }

        @Test func theConvenienceResolvesWorkThroughAResolverThatIsNotAContainer() throws {
            // The short forms take a fast path for Container; any other
            // Resolver must still be asked through the protocol.
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            let resolver: any Resolver = ForwardingResolver(container)
            #expect(try resolver.resolve(Wallet.self).owner == "ada")
            #expect(try resolver.resolve(Wallet.self, arguments: "grace").owner == "grace")
            #expect(try resolver.resolveIfRegistered(Wallet.self)?.owner == "ada")
            #expect(try resolver.resolveIfRegistered(Counter.self) == nil)
        }

        @Test func serviceTypeCanBeInferredFromTheResult() throws {
            let container = Container()
            container.register { _ in Wallet(owner: "ada") }
            let wallet: Wallet = try container.resolve()
            #expect(wallet.owner == "ada")
        }

        @Test func registeringTheSameKeyAgainReplacesTheFactory() throws {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "first") }
            container.register(Wallet.self) { _ in Wallet(owner: "second") }
            #expect(try container.resolve(Wallet.self).owner == "second")
            #expect(container.registrations().count == 1)
        }

        @Test func aConcreteTypeAndItsProtocolAreDifferentKeys() throws {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { _ in BitcoinPriceFetcher(networking: StubNetworking()) }
            let error = #expect(throws: ResolutionError.self) {
                try container.resolve((any PriceFetching).self)
            }
            #expect(error?.code == .notRegistered)
        }

        @Test func resolvesValueTypesOfEverySize() throws {
            let container = Container()
            container.register(LargeValue.self) { _ in LargeValue(j: 99) }
            container.register(EmptyValue.self) { _ in EmptyValue() }
            container.register(Int.self) { _ in 42 }
            #expect(try container.resolve(LargeValue.self) == LargeValue(j: 99))
            #expect(try container.resolve(EmptyValue.self) == EmptyValue())
            #expect(try container.resolve(Int.self) == 42)
        }

        @Test(arguments: Scope.allScopes)
        func largeValuesWorkInEveryScope(scope: Scope) throws {
            let container = Container()
            container.register(LargeValue.self, scope: scope) { _ in LargeValue(a: 11) }
            #expect(try container.resolve(LargeValue.self).a == 11)
            #expect(try container.resolve(LargeValue.self).a == 11)
        }

        @Test func optionalResolveReturnsNilOnlyWhenNotRegistered() throws {
            let container = Container()
            #expect(try container.resolveIfRegistered(Wallet.self) == nil)
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            #expect(try container.resolveIfRegistered(Wallet.self)?.owner == "ada")
        }

        @Test func optionalResolveStillThrowsForAMissingDependency() {
            let container = Container()
            container.register((any PriceFetching).self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let error = #expect(throws: ResolutionError.self) {
                try container.resolveIfRegistered((any PriceFetching).self)
            }
            #expect(error?.code == .notRegistered)
            #expect(error?.requested.serviceTypeName == "NetworkClient")
        }

        @Test func optionalResolveStillThrowsWhenTheFactoryThrows() {
            let container = Container()
            container.register(Wallet.self) { _ -> Wallet in throw FactoryFailure(reason: "offline") }
            let error = #expect(throws: ResolutionError.self) {
                try container.resolveIfRegistered(Wallet.self)
            }
            #expect(error?.code == .factoryFailed)
            #expect(error?.underlyingError is FactoryFailure)
        }

        @Test func isRegisteredChecksTheWholeKey() {
            let container = Container()
            container.register(Wallet.self, name: "cold") { (_, owner: String) in Wallet(owner: owner) }
            #expect(container.isRegistered(Wallet.self, name: "cold", argumentTypes: String.self))
            #expect(!container.isRegistered(Wallet.self, name: "cold"))
            #expect(!container.isRegistered(Wallet.self, argumentTypes: String.self))
            #expect(!container.isRegistered(Wallet.self, name: "cold", argumentTypes: Int.self))
        }

        @Test func aResolverProtocolValueResolvesLikeTheContainer() throws {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            let resolver: any Resolver = container
            #expect(try resolver.resolve(Wallet.self).owner == "ada")
            #expect(try resolver.resolve(Wallet.self, arguments: "bob").owner == "bob")
            #expect(try resolver.resolveIfRegistered(LargeValue.self) == nil)
        }
    }
}

/// The namespace for the container's behaviour suites, one file per topic.
enum ContainerTests {}
