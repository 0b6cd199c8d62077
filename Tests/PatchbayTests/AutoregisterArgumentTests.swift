import Patchbay
import Testing

/// A price built from a run-time amount and a registered service, as SwinjectAutoregistration's `argument:` example.
struct Quote {
    let amount: String
    let networking: any NetworkClient

    init(amount: String, networking: any NetworkClient) {
        self.amount = amount
        self.networking = networking
    }

    init(networking: any NetworkClient, amount: String) {
        self.init(amount: amount, networking: networking)
    }
}

/// `autoregister(_:argument:initializer:)`: the argument goes to the parameter of its type, the rest are resolved.
@Suite struct AutoregisterArgumentTests {
    @Test func theArgumentFillsTheParameterOfItsTypeWhereverItIs() throws {
        let container = Container()
        container.register((any NetworkClient).self) { _ in StubNetworking(body: "net") }
        container.autoregister(Quote.self, name: "first", argument: String.self, initializer: Quote.init(amount:networking:))
        container.autoregister(Quote.self, name: "last", argument: String.self, initializer: Quote.init(networking:amount:))
        for name in ["first", "last"] {
            let quote = try container.resolve(Quote.self, name: name, arguments: "12.50")
            #expect(quote.amount == "12.50")
            #expect(try quote.networking.get("/") == "net")
        }
    }

    @Test func theArgumentTypeIsPartOfTheKey() throws {
        let container = Container()
        container.register((any NetworkClient).self) { _ in StubNetworking() }
        container.autoregister(Quote.self, argument: String.self, initializer: Quote.init(amount:networking:))
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Quote.self) }
        #expect(error?.code == .notRegistered)
        #expect(throws: ResolutionError.self) { try container.resolve(Quote.self, arguments: 12) }
    }

    @Test func aMissingDependencyNamesIt() throws {
        let container = Container()
        container.autoregister(Quote.self, argument: String.self, initializer: Quote.init(amount:networking:))
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Quote.self, arguments: "1") }
        #expect(error?.code == .notRegistered)
        #expect(error?.description.contains("NetworkClient") == true)
    }
}
