/// A registered fetcher, reached through `pb_fetcher.context`.
final class FetcherBox: Sendable {
    let fetcher: any PriceFetcher

    init(_ fetcher: any PriceFetcher) {
        self.fetcher = fetcher
    }
}
