import Patchbay
import Testing

@Suite struct PropertyWrapperTests {
    private func configured() -> Container {
        let container = Container()
        container.register((any NetworkClient).self) { _ in StubNetworking(body: "wrapped") }
        container.register((any PriceFetching).self, name: "ETH") { _ in LabelledFetcher(label: "ether") }
        container.register(Leaf.self, scope: .shared) { _ in Leaf() }
        return container
    }

    @Test func wrappersResolveFromTheTaskLocalCurrentContainer() throws {
        let viewModel = Container.$current.withValue(configured()) { InjectedViewModel() }
        #expect(try viewModel.networking.get("/") == "wrapped")
        #expect(try viewModel.ether.price() == "ether")
        #expect(viewModel.wallet == nil)
    }

    @Test func anExplicitContainerWins() throws {
        let container = Container()
        container.register(Wallet.self) { _ in Wallet(owner: "explicit") }
        @Injected(container: container) var wallet: Wallet
        #expect(wallet.owner == "explicit")
    }

    @Test func theProjectedValueReportsAFailureWithoutTrapping() {
        let viewModel = Container.$current.withValue(Container()) { BrokenViewModel() }
        #expect(viewModel.$wallet.error?.code == .notRegistered)
        #expect(throws: ResolutionError.self) { try viewModel.$wallet.get() }
    }

    @Test func injectedTrapsWithTheFullMessageWhenReadAfterAFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let viewModel = Container.$current.withValue(Container()) { BrokenViewModel() }
            _ = viewModel.wallet
        }
        let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(standardError.contains("@Injected Wallet could not resolve its service."))
        #expect(standardError.contains("No registration for Wallet."))
        #expect(standardError.contains("try $property.get()"))
    }

    @Test func optionalInjectedIsNilOnlyWhenNotRegistered() throws {
        let container = Container()
        container.register(BitcoinPriceFetcher.self) { r in
            BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
        }
        let viewModel = Container.$current.withValue(container) { OptionalBrokenViewModel() }
        #expect(viewModel.$fetcher.error?.code == .notRegistered)
        #expect(viewModel.$fetcher.error?.requested.serviceTypeName == "NetworkClient")
        let empty = Container.$current.withValue(Container()) { OptionalBrokenViewModel() }
        #expect(empty.fetcher == nil)
        #expect(empty.$fetcher.error == nil)
    }

    @Test func lazyResolvesOnFirstReadFromTheContainerCurrentAtCreation() throws {
        let container = Container()
        let built = Counter()
        container.register(Wallet.self) { _ in Wallet(owner: "lazy \(built.increment())") }
        let viewModel = Container.$current.withValue(container) { LazyViewModel() }
        #expect(built.count == 0)
        #expect(viewModel.wallet.owner == "lazy 1")
        #expect(viewModel.wallet.owner == "lazy 1")
        #expect(built.count == 1)
    }

    @Test func lazyRetriesAfterAFailure() throws {
        let container = Container()
        let viewModel = Container.$current.withValue(container) { LazyViewModel() }
        #expect(viewModel.$wallet.error?.code == .notRegistered)
        container.register(Wallet.self) { _ in Wallet(owner: "later") }
        #expect(try viewModel.$wallet.get().owner == "later")
    }

    @Test func weakLazyLetsGoOfTheServiceWhenNobodyElseHoldsIt() throws {
        let container = Container()
        container.register(Leaf.self, scope: .unique) { _ in Leaf() }
        let viewModel = Container.$current.withValue(container) { LazyViewModel() }
        // The first read hands out the new Leaf; nothing else holds it, so it is then gone.
        #expect(viewModel.leaf != nil)
        #expect(viewModel.leaf == nil)
        #expect(try viewModel.$leaf.get() == nil)
    }

    @Test func weakLazyKeepsTheServiceWhileItIsHeld() throws {
        let container = Container()
        container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
        let viewModel = Container.$current.withValue(container) { LazyViewModel() }
        let held = try container.resolve(Leaf.self)
        #expect(viewModel.leaf === held)
    }

    @Test func childTasksInheritTheCurrentContainer() async throws {
        let container = configured()
        let body = try await Container.$current.withValue(container) {
            try await Task { try Container.current.resolve((any NetworkClient).self).get("/") }.value
        }
        #expect(body == "wrapped")
    }

    @Test func withoutABindingTheCurrentContainerIsMain() {
        #expect(Container.current === Container.main)
    }
}
