import Patchbay
import Testing

/// A configuration the caller builds before the container, as apps do.
struct AppConfig: Sendable, Equatable {
    let baseURL: String
}

/// `register(_:name:instance:)`: a value the caller already holds.
@Suite struct InstanceRegistrationTests {
    @Test func aSendableValueResolvesAsItself() throws {
        let container = Container()
        let config = AppConfig(baseURL: "https://api.example.com")
        container.register(AppConfig.self, instance: config)
        #expect(try container.resolve(AppConfig.self) == config)
    }

    @Test func anInstanceIsTheSameObjectOnEveryResolveAndThroughItsProtocols() throws {
        let container = Container()
        let networking = StubNetworking(body: "7")
        container.register(StubNetworking.self, name: "stub", instance: networking)
            .implements((any NetworkClient).self)
        #expect(try container.resolve(StubNetworking.self, name: "stub") === networking)
        #expect(try container.resolve((any NetworkClient).self).get("/") == "7")
    }

    @Test func anInstanceIsADependencyLikeAnyOther() throws {
        let container = Container()
        container.register((any NetworkClient).self, instance: StubNetworking(body: "99"))
        container.autoregister(BitcoinPriceFetcher.self, initializer: BitcoinPriceFetcher.init(networking:))
        #expect(try container.resolve(BitcoinPriceFetcher.self).price() == "99")
    }
}
