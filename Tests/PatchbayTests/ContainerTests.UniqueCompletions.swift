import Patchbay
import Testing

extension ContainerTests {
    /// A completion of a ``Scope/unique`` instance never lets a factory above
    /// it run again: the instance is kept nowhere, so a second run would find
    /// nothing new and build another, whose completion would ask again.
    @Suite struct UniqueCompletions {
        @Test(arguments: [Scope.graph, .singleton, .cached, .shared, .unique])
        func aUniqueChildsCompletionCannotReEnterItsParent(parentScope: Scope) {
            let container = Container()
            let built = Counter()
            container.register(InitializedParent.self, scope: parentScope) { r in
                built.increment()
                return InitializedParent(child: try r.resolve(CompletingChild.self))
            }
            container.register(CompletingChild.self, scope: .unique) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }

            let error = #expect(throws: ResolutionError.self) { try container.resolve(InitializedParent.self) }

            #expect(error?.code == .circularDependency)
            #expect(error?.pathDescription == "InitializedParent > CompletingChild > InitializedParent")
            #expect(built.count == 1, "the parent's factory ran again")
        }

        @Test(arguments: [Scope.graph, .singleton, .cached, .shared])
        func aKeptChildsCompletionReEntersItsParentOnce(childScope: Scope) throws {
            let container = Container()
            let built = Counter()
            container.register(InitializedParent.self) { r in
                built.increment()
                return InitializedParent(child: try r.resolve(CompletingChild.self))
            }
            container.register(CompletingChild.self, scope: childScope) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }

            let parent = try container.resolve(InitializedParent.self)

            #expect(parent.child.parent === parent)
            #expect(built.count == 2, "the child's completion re-entered the parent once")
        }
    }
}
