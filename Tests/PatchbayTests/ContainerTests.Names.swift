import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Names {
        private func container() -> Container {
            let container = Container()
            container.register((any PriceFetching).self) { _ in LabelledFetcher(label: "unnamed") }
            container.register((any PriceFetching).self, name: "ETH") { _ in LabelledFetcher(label: "ether") }
            container.register((any PriceFetching).self, name: "BTC") { _ in LabelledFetcher(label: "bitcoin") }
            return container
        }

        @Test(arguments: [(nil, "unnamed"), ("ETH", "ether"), ("BTC", "bitcoin")] as [(String?, String)])
        func eachNameResolvesItsOwnRegistration(name: String?, label: String) throws {
            #expect(try container().resolve((any PriceFetching).self, name: name).price() == label)
        }

        @Test func anUnknownNameIsNotRegisteredAndListsTheKnownNames() {
            let error = #expect(throws: ResolutionError.self) {
                try container().resolve((any PriceFetching).self, name: "DOGE")
            }
            #expect(error?.code == .notRegistered)
            #expect(error?.requested.name == "DOGE")
            #expect(error?.registeredAlternatives.compactMap(\.name).sorted() == ["BTC", "ETH"])
            #expect(error?.registeredAlternatives.contains { $0.name == nil } == true)
        }

        @Test func aNamedRegistrationIsNotTheUnnamedOne() {
            let container = Container()
            container.register(Wallet.self, name: "cold") { _ in Wallet(owner: "ada") }
            #expect(throws: ResolutionError.self) { try container.resolve(Wallet.self) }
        }

        @Test func namesAreComparedExactly() throws {
            let container = Container()
            container.register(Wallet.self, name: "eth") { _ in Wallet(owner: "lower") }
            container.register(Wallet.self, name: "ETH") { _ in Wallet(owner: "upper") }
            #expect(try container.resolve(Wallet.self, name: "eth").owner == "lower")
            #expect(try container.resolve(Wallet.self, name: "ETH").owner == "upper")
        }

        @Test func longAndComputedNamesFindTheirRegistration() throws {
            let container = Container()
            let long = String(repeating: "plugin.", count: 20) + "price"
            container.register(Wallet.self, name: long) { _ in Wallet(owner: "long") }
            let computed = (0..<20).map { _ in "plugin." }.joined() + "price"
            #expect(try container.resolve(Wallet.self, name: computed).owner == "long")
        }
    }
}
