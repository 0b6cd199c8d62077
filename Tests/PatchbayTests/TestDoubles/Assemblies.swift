import Patchbay

/// Registers networking.
struct NetworkAssembly: Assembly {
    func assemble(container: Container) {
        container.register((any NetworkClient).self, scope: .singleton) { _ in StubNetworking(body: "assembled") }
    }
}

/// Registers the price fetcher, which needs networking from another assembly.
struct PriceAssembly: Assembly {
    let loaded: Counter

    func assemble(container: Container) {
        container.register((any PriceFetching).self) { r in
            BitcoinPriceFetcher(networking: try r.resolve((any NetworkClient).self))
        }
    }

    func loaded(resolver: any Resolver) {
        if (try? resolver.resolve((any PriceFetching).self)) != nil {
            loaded.increment()
        }
    }
}
