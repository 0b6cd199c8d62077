import PriceKit
import Testing

@Suite struct PriceTests {
    @Test func describesItselfAsOneUnitOfTheBaseInTheCurrency() throws {
        let price = Price(base: "BTC", currency: "USD", amount: try DecimalAmount("15840.01"))
        #expect(price.description == "1 BTC = 15840.01 USD")
    }

    @Test func fetchersWithoutADisplayNameShowTheirSymbol() {
        struct Bare: PriceFetcher {
            let symbol = "XMR"
            func price(in currency: String, timeout: Duration?) async throws -> Price {
                Price(base: symbol, currency: currency, amount: try DecimalAmount("1"))
            }
        }
        #expect(Bare().displayName == "XMR")
    }

    @Test func priceWithoutATimeoutAsksForTheDefault() async throws {
        let networking = CannedNetworking.answering(#"{"data":{"base":"BTC","currency":"USD","amount":"1.00"}}"#)
        let fetcher = CoinbaseSpotFetcher(base: "BTC", networking: networking, apiBaseURL: .coinbase)
        _ = try await fetcher.price(in: "USD")
        #expect(networking.requests.map(\.timeout) == [nil])
    }
}
