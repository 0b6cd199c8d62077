import Patchbay
import Testing

extension ContainerTests {
    @Suite struct Circularity {
        private func cycle(scope: Scope) -> Container {
            let container = Container(defaultScope: scope)
            container.register(CycleA.self) { r in CycleA(try r.resolve()) }
            container.register(CycleB.self) { r in CycleB(try r.resolve()) }
            container.register(CycleC.self) { r in CycleC(try r.resolve()) }
            return container
        }

        @Test(arguments: Scope.allScopes)
        func aCycleThrowsWithTheFullChainInEveryScope(scope: Scope) {
            let error = #expect(throws: ResolutionError.self) { try cycle(scope: scope).resolve(CycleA.self) }
            #expect(error?.code == .circularDependency)
            #expect(error?.pathDescription == "CycleA > CycleB > CycleC > CycleA")
            #expect(error?.description.hasPrefix("Circular dependency: CycleA > CycleB > CycleC > CycleA.") == true)
        }

        @Test func aCycleEnteredInTheMiddleReportsFromWhereItStarted() {
            let error = #expect(throws: ResolutionError.self) { try cycle(scope: .graph).resolve(CycleB.self) }
            #expect(error?.pathDescription == "CycleB > CycleC > CycleA > CycleB")
        }

        @Test func aFactoryResolvingItselfIsACycle() {
            let container = Container()
            container.register(Leaf.self, scope: .singleton) { r in try r.resolve(Leaf.self) }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(Leaf.self) }
            #expect(error?.pathDescription == "Leaf > Leaf")
        }

        @Test func aSingletonCycleLeavesTheContainerUsable() throws {
            let container = cycle(scope: .singleton)
            #expect(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
            #expect(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
            container.register(CycleC.self, scope: .singleton) { _ in
                throw FactoryFailure(reason: "no cycle now")
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
            #expect(error?.code == .factoryFailed)
        }

        @Test(arguments: [Scope.graph, .singleton])
        func initCompletedBreaksACycleByPropertyInjection(scope: Scope) throws {
            let container = Container()
            container.register(Parent.self, scope: scope) { _ in Parent() }
                .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self, scope: scope) { r in Child(parent: try r.resolve(Parent.self)) }
            let parent = try container.resolve(Parent.self)
            #expect(parent.child?.parent === parent)
        }

        @Test func initCompletedCannotBreakACycleOfUniqueInstances() {
            let container = Container()
            container.register(Parent.self, scope: .unique) { _ in Parent() }
                .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self, scope: .unique) { r in Child(parent: try r.resolve(Parent.self)) }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(Parent.self) }
            #expect(error?.code == .circularDependency)
            #expect(error?.pathDescription == "Parent > Child > Parent")
        }

        @Test func aChainThatNeverRepeatsStopsAtTheDepthLimit() {
            // Each resolve registers into a new container, so no registration repeats.
            @Sendable func deeper(_ level: Int) -> Container {
                let container = Container()
                container.register(Int.self) { _ in try deeper(level + 1).resolve(Int.self) }
                return container
            }
            let error = #expect(throws: ResolutionError.self) { try deeper(0).resolve(Int.self) }
            #expect(error?.code == .depthLimitExceeded)
            #expect(error?.path.count == Container.maximumDepth + 1)
            #expect(error?.description.contains("deeper than \(Container.maximumDepth) levels") == true)
        }
    }
}
