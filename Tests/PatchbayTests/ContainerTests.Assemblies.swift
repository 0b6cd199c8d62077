import Patchbay
import Testing

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
                    container.register((any NetworkClient).self) { _ in StubNetworking(body: "override") }
                }
            }
            let container = Container(assemblies: [NetworkAssembly(), Override()])
            #expect(try container.resolve((any NetworkClient).self).get("/") == "override")
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
