import Patchbay

/// Fetches a price over some network; the classic example's protocol.
protocol NetworkClient: Sendable {
    func get(_ path: String) throws -> String
}

/// A networking double that answers every path with a fixed body.
final class StubNetworking: NetworkClient {
    let body: String
    init(body: String = "42") { self.body = body }
    func get(_ path: String) throws -> String { body }
}

/// Fetches prices.
protocol PriceFetching: AnyObject {
    func price() throws -> String
}

/// Updates prices.
protocol PriceUpdating: AnyObject {
    func refresh()
}

/// Not conformed to by anything; for forwarding mismatches.
protocol Unrelated {}

/// A fetcher built by constructor injection.
final class BitcoinPriceFetcher: PriceFetching, PriceUpdating {
    let networking: any NetworkClient
    init(networking: any NetworkClient) { self.networking = networking }
    func price() throws -> String { try networking.get("/btc") }
    func refresh() {}
}

/// A view model that needs both faces of one combined service.
final class PriceViewModel {
    let fetching: any PriceFetching
    let updating: any PriceUpdating
    init(fetching: any PriceFetching, updating: any PriceUpdating) {
        self.fetching = fetching
        self.updating = updating
    }

    /// Resolves both faces, which a registration that `implements` both may serve with one instance.
    convenience init(resolving r: any Resolver) throws(ResolutionError) {
        self.init(fetching: try r.resolve((any PriceFetching).self), updating: try r.resolve((any PriceUpdating).self))
    }
}

/// A fetcher with a label, for named registrations.
final class LabelledFetcher: PriceFetching {
    let label: String
    init(label: String) { self.label = label }
    func price() throws -> String { label }
}

/// A wallet built from factory arguments.
struct Wallet: Equatable {
    var owner: String
    var limit: Int = 0
    var currency: String = "BTC"
    var active: Bool = true
    var fee: Double = 0
}

/// Has an initializer with several dependencies, for autoregistration.
final class Dashboard {
    let fetcher: any PriceFetching
    let networking: any NetworkClient
    let wallet: Wallet
    init(fetcher: any PriceFetching, networking: any NetworkClient, wallet: Wallet) {
        self.fetcher = fetcher
        self.networking = networking
        self.wallet = wallet
    }
}
