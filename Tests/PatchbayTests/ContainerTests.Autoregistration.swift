import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Autoregistration {
        @Test func resolvesTheInitializersParameterFromTheContainer() throws {
            let container = Container()
            container.register((any NetworkClient).self) { _ in StubNetworking(body: "auto") }
            container.autoregister((any PriceFetching).self, initializer: BitcoinPriceFetcher.init)
            #expect(try container.resolve((any PriceFetching).self).price() == "auto")
        }

        @Test func resolvesEveryParameterInOrder() throws {
            let container = Container()
            container.register((any NetworkClient).self) { _ in StubNetworking() }
            container.register(Wallet.self) { _ in Wallet(owner: "ada") }
            container.autoregister((any PriceFetching).self, initializer: BitcoinPriceFetcher.init)
            container.autoregister(initializer: Dashboard.init)
            let dashboard = try container.resolve(Dashboard.self)
            #expect(dashboard.wallet.owner == "ada")
        }

        @Test func takesANameAndAScope() throws {
            let container = Container()
            container.autoregister(Leaf.self, name: "only", scope: .singleton, initializer: Leaf.init)
            #expect(try container.resolve(Leaf.self, name: "only") === container.resolve(Leaf.self, name: "only"))
        }

        @Test func aMissingParameterNamesThePath() {
            let container = Container()
            container.autoregister((any PriceFetching).self, initializer: BitcoinPriceFetcher.init)
            let error = #expect(throws: ResolutionError.self) { try container.resolve((any PriceFetching).self) }
            #expect(error?.pathDescription == "PriceFetching > NetworkClient")
        }

        @Test func chainsOptionsLikeRegister() throws {
            let container = Container()
            container.register((any NetworkClient).self) { _ in StubNetworking() }
            container.autoregister(initializer: BitcoinPriceFetcher.init)
                .implements((any PriceFetching).self)
                .scope(.singleton)
            #expect(try container.resolve((any PriceFetching).self) === container.resolve(BitcoinPriceFetcher.self))
        }
    }
}
