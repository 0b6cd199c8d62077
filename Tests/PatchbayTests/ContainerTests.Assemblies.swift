import Patchbay
import Testing

/// Registers networking.
private struct NetworkAssembly: Assembly {
    func assemble(container: Container) {
        container.register((any Networking).self, scope: .singleton) { _ in StubNetworking(body: "assembled") }
    }
}

/// Registers the price fetcher, which needs networking from another assembly.
private struct PriceAssembly: Assembly {
    let loaded: Counter

    func assemble(container: Container) {
        container.register((any PriceFetching).self) { r in
            BitcoinPriceFetcher(networking: try r.resolve((any Networking).self))
        }
    }

    func loaded(resolver: any Resolver) {
        if (try? resolver.resolve((any PriceFetching).self)) != nil {
            loaded.increment()
        }
    }
}

extension ContainerTests {
    @Suite struct Assemblies {
        @Test func aContainerIsBuiltFromAListOfAssemblies() throws {
            let container = Container(assemblies: [NetworkAssembly(), PriceAssembly(loaded: Counter())])
            #expect(try container.resolve((any PriceFetching).self).price() == "assembled")
        }

        @Test func loadedRunsAfterEveryAssemblyHasAssembled() {
            let loaded = Counter()
            // The price assembly comes first, yet its `loaded` can resolve networking.
            _ = Container(assemblies: [PriceAssembly(loaded: loaded), NetworkAssembly()])
            #expect(loaded.count == 1)
        }

        @Test func laterAssembliesOverrideEarlierOnes() throws {
            struct Override: Assembly {
                func assemble(container: Container) {
                    container.register((any Networking).self) { _ in StubNetworking(body: "override") }
                }
            }
            let container = Container(assemblies: [NetworkAssembly(), Override()])
            #expect(try container.resolve((any Networking).self).get("/") == "override")
        }

        @Test func assembliesApplyToAnExistingContainerAndItsDefaultScope() throws {
            struct Plain: Assembly {
                func assemble(container: Container) {
                    container.register(Leaf.self) { _ in Leaf() }
                }
            }
            let container = Container(parent: Container(), defaultScope: .singleton)
            container.apply([Plain()])
            #expect(try container.resolve(Leaf.self) === container.resolve(Leaf.self))
        }
    }
}
