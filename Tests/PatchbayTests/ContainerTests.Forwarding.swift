import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Forwarding {
        @Test func aForwardedTypeResolvesTheSameSingleton() throws {
            let container = Container()
            container.register(BitcoinPriceFetcher.self, scope: .singleton) { _ in
                BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceFetching).self)
            .implements((any PriceUpdating).self)
            let concrete = try container.resolve(BitcoinPriceFetcher.self)
            #expect(try container.resolve((any PriceFetching).self) === concrete)
            #expect(try container.resolve((any PriceUpdating).self) === concrete)
        }

        @Test func aForwardedSingletonIsBuiltOnceWhicheverTypeComesFirst() throws {
            let container = Container()
            let built = Counter()
            container.register(BitcoinPriceFetcher.self, scope: .singleton) { _ in
                built.increment()
                return BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceUpdating).self)
            let updating = try container.resolve((any PriceUpdating).self)
            #expect(try container.resolve(BitcoinPriceFetcher.self) === updating)
            #expect(built.count == 1)
        }

        @Test func forwardingHonoursUniqueScope() throws {
            let container = Container()
            container.register(BitcoinPriceFetcher.self, scope: .unique) { _ in
                BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceFetching).self)
            #expect(try container.resolve((any PriceFetching).self) !== container.resolve((any PriceFetching).self))
        }

        @Test func forwardingUnderANameKeepsTheArguments() throws {
            let container = Container()
            container.register(LabelledFetcher.self, name: "ETH") { (_, label: String) in LabelledFetcher(label: label) }
                .implements((any PriceFetching).self, name: "ETH")
            let fetcher = try container.resolve((any PriceFetching).self, name: "ETH", arguments: "ether")
            #expect(try fetcher.price() == "ether")
            #expect(throws: ResolutionError.self) { try container.resolve((any PriceFetching).self, name: "ETH") }
        }

        @Test func aTypeTheServiceDoesNotConformToFailsWithTypeMismatch() {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }.implements((any Unrelated).self)
            let error = #expect(throws: ResolutionError.self) { try container.resolve((any Unrelated).self) }
            #expect(error?.code == .typeMismatch)
            #expect(error?.description.contains("Leaf, which is not a Unrelated") == true)
        }

        @Test func forwardedTypesAreListedOnTheirRegistration() {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { _ in BitcoinPriceFetcher(networking: StubNetworking()) }
                .implements((any PriceFetching).self)
                .implements((any PriceUpdating).self)
            let registrations = container.registrations()
            #expect(registrations.count == 1)
            #expect(registrations.first?.forwardedTypes.map { "\($0)" } == ["PriceFetching", "PriceUpdating"])
        }

        @Test func aForwardedTypeFromAParentResolvesThroughAChild() throws {
            let parent = Container()
            parent.register(BitcoinPriceFetcher.self, scope: .singleton) { _ in
                BitcoinPriceFetcher(networking: StubNetworking())
            }.implements((any PriceFetching).self)
            let child = Container(parent: parent)
            #expect(try child.resolve((any PriceFetching).self) === parent.resolve(BitcoinPriceFetcher.self))
        }

        @Test func theScopeCanBeChangedAfterForwarding() throws {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { _ in BitcoinPriceFetcher(networking: StubNetworking()) }
                .implements((any PriceFetching).self)
                .scope(.singleton)
            #expect(try container.resolve((any PriceFetching).self) === container.resolve(BitcoinPriceFetcher.self))
        }
    }
}
