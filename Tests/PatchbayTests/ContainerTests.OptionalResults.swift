import Patchbay
import Testing

extension ContainerTests {
    /// An optional result resolves the wrapped type: nil only when nothing is registered.
    @Suite struct OptionalResults {
        @Test func anInferredOptionalResolvesTheWrappedType() throws {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            let wallet: Wallet? = try container.resolve()
            #expect(wallet?.owner == "ada")
        }

        @Test func anInferredOptionalIsNilOnlyWhenNothingIsRegistered() throws {
            let wallet: Wallet? = try Container().resolve()
            #expect(wallet == nil)
        }

        @Test func anInferredOptionalStillThrowsForAMissingDependency() {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let error = #expect(throws: ResolutionError.self) {
                let _: BitcoinPriceFetcher? = try container.resolve()
            }
            #expect(error?.code == .notRegistered)
            #expect(error?.pathDescription == "BitcoinPriceFetcher > NetworkClient")
        }

        @Test func anInferredOptionalWorksWithNamesAndArguments() throws {
            let container = Container()
            container.register(Wallet.self, name: "savings") { _ in Wallet(owner: "named") }
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            let named: Wallet? = try container.resolve(name: "savings")
            let withArgument: Wallet? = try container.resolve(arguments: "grace")
            let missing: Wallet? = try container.resolve(name: "checking")
            #expect(named?.owner == "named")
            #expect(withArgument?.owner == "grace")
            #expect(missing == nil)
        }

        @Test func anInferredOptionalWorksInsideAFactoryAndThroughAnyResolver() throws {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            container.register(String.self) { r in
                let wallet: Wallet? = try r.resolve()
                let leaf: Leaf? = try r.resolve()
                return "\(wallet?.owner ?? "none") \(leaf == nil ? "no leaf" : "leaf")"
            }
            #expect(try container.resolve(String.self) == "ada no leaf")
            let resolver: any Resolver = ForwardingResolver(container)
            let wallet: Wallet? = try resolver.resolve()
            let withArgument: Wallet? = try resolver.resolve(arguments: "grace")
            let leaf: Leaf? = try resolver.resolve()
            #expect(wallet?.owner == "ada")
            #expect(withArgument?.owner == "grace")
            #expect(leaf == nil)
        }

        @Test func aRegistrationOfTheOptionalTypeItselfIsFoundFirst() throws {
            let container = Container()
            container.register(Int?.self) { _ in 5 }
            container.register(Int.self) { _ in 7 }
            let explicit: Int? = try container.resolve()
            #expect(explicit == 5)
            #expect(try container.resolve(Int.self) == 7)
        }
    }

    @Suite struct AnyRegistration {
        @Test func takesANameAsSwinjectDoesAndAnyArguments() {
            let container = Container()
            container.register(Wallet.self, name: "savings") { (_, limit: Int) in Wallet(owner: "x", limit: limit) }
            #expect(container.hasAnyRegistration(Wallet.self, name: "savings"))
            #expect(!container.hasAnyRegistration(Wallet.self), "Swinject's meaning: no unnamed registration")
            #expect(!container.hasAnyRegistration(Wallet.self, name: "checking"))
            #expect(!container.isRegistered(Wallet.self, name: "savings"), "isRegistered checks the argument types too")
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            #expect(container.hasAnyRegistration(Wallet.self))
            #expect(!container.hasAnyRegistration(Leaf.self))
        }

        @Test func underAnyNameCountsEveryNameAndTheUnnamedOne() {
            let container = Container()
            container.register(Wallet.self, name: "savings") { (_, limit: Int) in Wallet(owner: "x", limit: limit) }
            #expect(container.hasRegistrationUnderAnyName(Wallet.self))
            #expect(!container.hasRegistrationUnderAnyName(Leaf.self))
            container.register(Leaf.self) { _ in Leaf() }
            #expect(container.hasRegistrationUnderAnyName(Leaf.self))
        }

        @Test func seesParentsAndForwardedTypes() {
            let parent = Container()
            parent.register(BitcoinPriceFetcher.self, name: "BTC") { _ in
                BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceFetching).self, name: "BTC")
            let child = Container(parent: parent)
            #expect(child.hasAnyRegistration(BitcoinPriceFetcher.self, name: "BTC"))
            #expect(child.hasAnyRegistration((any PriceFetching).self, name: "BTC"))
            #expect(!child.hasAnyRegistration((any PriceFetching).self))
            #expect(child.hasRegistrationUnderAnyName((any PriceFetching).self))
            #expect(!child.hasRegistrationUnderAnyName((any PriceUpdating).self))
            #expect(!Container().hasRegistrationUnderAnyName(BitcoinPriceFetcher.self))
        }
    }
}
