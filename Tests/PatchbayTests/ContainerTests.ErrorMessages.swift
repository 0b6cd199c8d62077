import Patchbay
import Testing

extension ContainerTests {
    /// Pins what each error message says: the key, the path and the fix.
    @Suite struct ErrorMessages {
        @Test func notRegisteredNamesTheKeyThePathTheAlternativesAndTheFix() {
            let container = Container()
            container.register((any PriceFetching).self, name: "ETH") { (_, label: String) in LabelledFetcher(label: label) }
            container.register((any PriceFetching).self) { _ in LabelledFetcher(label: "x") }
            container.register(PriceViewModel.self) { r in
                let fetcher = try r.resolve((any PriceFetching).self, name: "BTC", arguments: 1)
                return PriceViewModel(fetching: fetcher, updating: BitcoinPriceFetcher(networking: StubNetworking()))
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(PriceViewModel.self) }
            #expect(
                error?.description == """
                    No registration for PriceFetching(name: "BTC", arguments: Int).
                      Resolution path: PriceViewModel > PriceFetching(name: "BTC", arguments: Int)
                      Registered for PriceFetching:
                        • PriceFetching
                        • PriceFetching(name: "ETH", arguments: String)

                    To fix you can do one of two things:
                      • Register it: container.register(PriceFetching.self, name: "BTC") { (resolver, argument1: Int) in … }.
                      • Or resolve one of the registrations above, with its name and argument types.
                    """)
        }

        @Test func notRegisteredWithNothingForTheTypeSaysSo() {
            let error = #expect(throws: ResolutionError.self) { try Container().resolve(Wallet.self) }
            #expect(
                error?.description == """
                    No registration for Wallet.
                      Nothing is registered for Wallet, under any name or arguments.

                    To fix you can do one of two things:
                      • Register it: container.register(Wallet.self) { resolver in … }.
                      • Or resolve it from the container that registers it, or make that container this one's parent.
                    """)
            #expect(error?.path.map(\.description) == ["Wallet"])
        }

        @Test func circularDependencyShowsTheChainAndTheWaysOut() {
            let container = Container()
            container.register(CycleA.self) { r in CycleA(try r.resolve()) }
            container.register(CycleB.self) { r in CycleB(try r.resolve()) }
            container.register(CycleC.self) { r in CycleC(try r.resolve()) }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
            let description = error?.description ?? ""
            #expect(description.hasPrefix("Circular dependency: CycleA > CycleB > CycleC > CycleA.\n"))
            #expect(description.contains("To fix you can do one of three things:"))
            #expect(description.contains("`initCompleted`"))
            #expect(description.contains("`@LazyInjected`"))
        }

        @Test func factoryFailedShowsTheUnderlyingErrorAndThePath() {
            let container = Container()
            container.register((any NetworkClient).self) { _ -> any NetworkClient in
                throw FactoryFailure(reason: "no route to host")
            }
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(BitcoinPriceFetcher.self) }
            #expect(error?.code == .factoryFailed)
            #expect(error?.underlyingError is FactoryFailure)
            #expect(error?.pathDescription == "BitcoinPriceFetcher > NetworkClient")
            #expect(
                error?.description == """
                    The factory for NetworkClient threw: FactoryFailure(no route to host)
                      Resolution path: BitcoinPriceFetcher > NetworkClient

                    To fix, make the factory succeed, or catch the ResolutionError where NetworkClient is resolved \
                    and handle `underlyingError`.
                    """)
        }

        @Test func aNestedErrorIsPassedUpUnchanged() {
            let container = Container()
            container.register(BitcoinPriceFetcher.self) { r in
                BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
            }
            container.register(PriceViewModel.self) { r in
                let fetcher = try r.resolve(BitcoinPriceFetcher.self)
                return PriceViewModel(fetching: fetcher, updating: fetcher)
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(PriceViewModel.self) }
            #expect(error?.code == .notRegistered)
            #expect(error?.pathDescription == "PriceViewModel > BitcoinPriceFetcher > NetworkClient")
        }

        @Test func typeMismatchNamesBothTypesAndTheFix() {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }.implements((any Unrelated).self)
            let error = #expect(throws: ResolutionError.self) { try container.resolve((any Unrelated).self) }
            #expect(
                error?.description == """
                    Unrelated is forwarded with `.implements(Unrelated.self)`, but the registration made a Leaf, \
                    which is not a Unrelated.
                      Resolution path: Unrelated

                    To fix, make Leaf conform to Unrelated, or remove `.implements(Unrelated.self)` from the registration.
                    """)
        }

        @Test func codesDescribeThemselves() {
            #expect(
                [ResolutionError.Code.notRegistered, .circularDependency, .factoryFailed, .typeMismatch, .depthLimitExceeded]
                    .map(\.description)
                    == ["notRegistered", "circularDependency", "factoryFailed", "typeMismatch", "depthLimitExceeded"])
        }

        @Test func stepsDescribeNameAndArguments() {
            #expect(ResolutionStep(serviceType: Wallet.self).description == "Wallet")
            #expect(ResolutionStep(serviceType: Wallet.self, name: "a\"b").description == #"Wallet(name: "a\"b")"#)
            #expect(
                ResolutionStep(serviceType: Wallet.self, name: "x", argumentTypes: [String.self, Int.self]).description
                    == #"Wallet(name: "x", arguments: String, Int)"#)
        }
    }
}
