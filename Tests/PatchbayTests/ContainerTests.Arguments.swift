import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Arguments {
        @Test func passesOneArgumentToTheFactory() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            #expect(try container.resolve(Wallet.self, arguments: "ada").owner == "ada")
        }

        @Test func passesAnyNumberOfArgumentsInOrder() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String, limit: Int) in Wallet(owner: owner, limit: limit) }
            container.register(Wallet.self) {
                (_, owner: String, limit: Int, currency: String, active: Bool, fee: Double) in
                Wallet(owner: owner, limit: limit, currency: currency, active: active, fee: fee)
            }
            #expect(try container.resolve(Wallet.self, arguments: "ada", 5) == Wallet(owner: "ada", limit: 5))
            let five = try container.resolve(Wallet.self, arguments: "bob", 7, "ETH", false, 0.5)
            #expect(five == Wallet(owner: "bob", limit: 7, currency: "ETH", active: false, fee: 0.5))
        }

        @Test func argumentTypesArePartOfTheKey() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            let error = #expect(throws: ResolutionError.self) {
                try container.resolve(Wallet.self, arguments: 42)
            }
            #expect(error?.code == .notRegistered)
            #expect(error?.requested.argumentTypes.map { "\($0)" } == ["Int"])
            #expect(error?.registeredAlternatives.map(\.description) == ["Wallet(arguments: String)"])
        }

        @Test func argumentCountIsPartOfTheKey() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            #expect(throws: ResolutionError.self) { try container.resolve(Wallet.self) }
            #expect(throws: ResolutionError.self) { try container.resolve(Wallet.self, arguments: "a", "b") }
        }

        @Test func oneTupleArgumentIsNotTwoArguments() throws {
            let container = Container()
            container.register(Wallet.self) { (_, pair: (String, Int)) in Wallet(owner: "tuple \(pair.0)") }
            container.register(Wallet.self) { (_, owner: String, limit: Int) in Wallet(owner: "pair \(owner)") }
            #expect(try container.resolve(Wallet.self, arguments: ("a", 1)).owner == "tuple a")
            #expect(try container.resolve(Wallet.self, arguments: "a", 1).owner == "pair a")
        }

        @Test func namesAndArgumentsCombine() throws {
            let container = Container()
            container.register(Wallet.self, name: "cold") { (_, owner: String) in Wallet(owner: "cold \(owner)") }
            container.register(Wallet.self, name: "hot") { (_, owner: String) in Wallet(owner: "hot \(owner)") }
            #expect(try container.resolve(Wallet.self, name: "cold", arguments: "ada").owner == "cold ada")
            #expect(try container.resolve(Wallet.self, name: "hot", arguments: "ada").owner == "hot ada")
        }

        @Test func aSingletonWithArgumentsKeepsTheFirstArguments() throws {
            let container = Container()
            container.register(Wallet.self, scope: .singleton) { (_, owner: String) in Wallet(owner: owner) }
            #expect(try container.resolve(Wallet.self, arguments: "first").owner == "first")
            #expect(try container.resolve(Wallet.self, arguments: "second").owner == "first")
        }

        @Test func aFactoryPassesArgumentsOnToItsDependencies() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            container.register(String.self) { (r, owner: String) in
                "wallet of \(try r.resolve(Wallet.self, arguments: owner).owner)"
            }
            #expect(try container.resolve(String.self, arguments: "ada") == "wallet of ada")
        }

        @Test func optionalResolveWithArguments() throws {
            let container = Container()
            container.register(Wallet.self) { (_, owner: String) in Wallet(owner: owner) }
            #expect(try container.resolveIfRegistered(Wallet.self, arguments: "ada")?.owner == "ada")
            #expect(try container.resolveIfRegistered(Wallet.self, arguments: 1) == nil)
        }
    }
}
