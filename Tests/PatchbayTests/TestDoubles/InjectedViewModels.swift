import Patchbay

/// Uses each property wrapper, resolving from the current container.
final class InjectedViewModel {
    @Injected var networking: any NetworkClient
    @Injected(name: "ETH") var ether: any PriceFetching
    @OptionalInjected var wallet: Wallet?
    @LazyInjected var leaf: Leaf
    @WeakLazyInjected var shared: Leaf?
}

/// Reads a service that is never registered.
final class BrokenViewModel {
    @Injected var wallet: Wallet
}

/// Optional injection of a registered service whose dependency is missing.
final class OptionalBrokenViewModel {
    @OptionalInjected var fetcher: BitcoinPriceFetcher?
}

/// Lazy injection only.
final class LazyViewModel {
    @LazyInjected var wallet: Wallet
    @WeakLazyInjected var leaf: Leaf?
}
