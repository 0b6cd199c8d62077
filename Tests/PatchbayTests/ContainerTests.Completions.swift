import Patchbay
import Testing

extension ContainerTests {
    /// `initCompleted`: every completion runs, in order, on the resolution path,
    /// and a circular pair completes whichever side sets its back-reference.
    @Suite struct Completions {
        /// The scopes that keep an instance, where a completion can break a cycle.
        static let keepingScopes: [Scope] = [.graph, .singleton, .cached, .shared]

        @Test(arguments: Scope.allScopes)
        func everyInitCompletedRunsInTheOrderAdded(scope: Scope) throws {
            let container = Container()
            let log = Log()
            container.register(Leaf.self, scope: scope) { _ in
                log.append("factory")
                return Leaf()
            }
            .initCompleted { _, _ in log.append("first") }
            .initCompleted { _, _ in log.append("second") }
            .scope(scope)
            .initCompleted { _, _ in log.append("third") }
            _ = try container.resolve(Leaf.self)
            #expect(log.all == ["factory", "first", "second", "third"])
        }

        @Test func everyCompletionReceivesTheSameInstance() throws {
            let container = Container()
            let seen = Log()
            container.register(Leaf.self) { _ in Leaf() }
                .initCompleted { _, leaf in seen.append("\(ObjectIdentifier(leaf))") }
                .initCompleted { _, leaf in seen.append("\(ObjectIdentifier(leaf))") }
            let leaf = try container.resolve(Leaf.self)
            #expect(seen.all == ["\(ObjectIdentifier(leaf))", "\(ObjectIdentifier(leaf))"])
        }

        @Test(arguments: keepingScopes)
        func aParentBuiltByInitializerWhoseChildSetsItsBackReferenceCompletes(scope: Scope) throws {
            let container = Container(defaultScope: scope)
            let parentsBuilt = Counter()
            container.register(InitializedParent.self) { r in
                parentsBuilt.increment()
                return InitializedParent(child: try r.resolve(CompletingChild.self))
            }
            container.register(CompletingChild.self) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }
            let parent = try container.resolve(InitializedParent.self)
            #expect(parent.child.parent === parent)
            // The child's completion re-entered the parent's factory once; the second parent is the one kept.
            #expect(parentsBuilt.count == 2)
        }

        @Test(arguments: keepingScopes)
        func aParentThatSetsItsChildInInitCompletedCompletes(scope: Scope) throws {
            let container = Container(defaultScope: scope)
            container.register(Parent.self) { _ in Parent() }
                .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self) { r in Child(parent: try r.resolve(Parent.self)) }
            let parent = try container.resolve(Parent.self)
            #expect(parent.child?.parent === parent)
        }

        @Test(arguments: [Scope.singleton, .cached])
        func resolvingTheChildFirstReEntersTheChildAndCompletes(scope: Scope) throws {
            let container = Container(defaultScope: scope)
            let childrenBuilt = Counter()
            container.register(Parent.self) { _ in Parent() }
                .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self) { r in
                childrenBuilt.increment()
                return Child(parent: try r.resolve(Parent.self))
            }
            let child = try container.resolve(Child.self)
            #expect(child.parent?.child === child)
            #expect(try container.resolve(Parent.self).child === child)
            #expect(childrenBuilt.count == 2)
        }

        @Test func fourObjectsMixingInitializerAndPropertyInjectionComplete() throws {
            let container = Container()
            let built = Log()
            container.register(FourA.self) { r in
                built.append("A")
                return FourA(b: try r.resolve())
            }
            container.register(FourB.self) { r in
                built.append("B")
                return FourB(c: try r.resolve())
            }
            container.register(FourC.self) { r in
                built.append("C")
                return FourC(d: try r.resolve())
            }
            .initCompleted { r, c in c.a = try r.resolve(FourA.self) }
            container.register(FourD.self) { _ in
                built.append("D")
                return FourD()
            }
            .initCompleted { r, d in
                d.b = try r.resolve(FourB.self)
                d.c = try r.resolve(FourC.self)
            }
            let a = try container.resolve(FourA.self)
            #expect(a.b.c.a === a)
            #expect(a.b.c.d.b === a.b)
            #expect(a.b.c.d.c === a.b.c)
            // D's completion re-entered B's factory, and B's second run C's; C's completion re-entered A's, and
            // A's second run B's a third time, which found C kept. Swinject runs the same factories in this order.
            #expect(built.all == ["A", "B", "C", "D", "B", "C", "A", "B"])
        }

        @Test func aWeakScopeRootSurvivesItsGraphWithItsBackReference() throws {
            let container = Container()
            container.register(InitializedParent.self, scope: .shared) { r in
                InitializedParent(child: try r.resolve(CompletingChild.self))
            }
            container.register(CompletingChild.self, scope: .graph) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }
            let parent = try container.resolve(InitializedParent.self)
            #expect(parent.child.parent === parent)
            // The weakly held instance is the one kept, the one the child points at.
            #expect(try container.resolve(InitializedParent.self) === parent)
        }

        @Test(arguments: Scope.allScopes)
        func anErrorInsideACompletionReportsTheServiceOnThePath(scope: Scope) {
            let container = Container()
            container.register(PetOwner.self, scope: .unique) { r in PetOwner(animal: try r.resolve()) }
            container.register(Animal.self, scope: scope) { _ in Animal() }
                .initCompleted { r, animal in animal.food = try r.resolve(Food.self) }
            container.register(Food.self) { _ -> Food in throw FactoryFailure(reason: "out of stock") }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(PetOwner.self) }
            #expect(error?.code == .factoryFailed)
            #expect(error?.pathDescription == "PetOwner > Animal > Food")
        }

        @Test(arguments: Scope.allScopes)
        func anErrorThrownByACompletionNamesItsService(scope: Scope) {
            let container = Container()
            container.register(PetOwner.self, scope: .unique) { r in PetOwner(animal: try r.resolve()) }
            container.register(Animal.self, scope: scope) { _ in Animal() }
                .initCompleted { _, _ in throw FactoryFailure(reason: "no food") }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(PetOwner.self) }
            #expect(error?.code == .factoryFailed)
            #expect(error?.pathDescription == "PetOwner > Animal")
            #expect(error?.description.hasPrefix("The factory for Animal threw: FactoryFailure(no food)") == true)
        }

        @Test(arguments: [Scope.singleton, .cached, .shared])
        func aStoredServiceWhoseCompletionFailedIsBuiltAgainNextTime(scope: Scope) throws {
            let container = Container()
            let attempts = Counter()
            container.register(Animal.self, scope: scope) { _ in Animal() }
                .initCompleted { _, _ in
                    if attempts.increment() == 1 { throw FactoryFailure(reason: "first") }
                }
            #expect(throws: ResolutionError.self) { try container.resolve(Animal.self) }
            let animal = try container.resolve(Animal.self)
            if scope != .shared {
                #expect(try container.resolve(Animal.self) === animal)
            }
            #expect(attempts.count == 2)
        }

        @Test(arguments: Scope.allScopes)
        func aCycleThroughACompletionReportsTheFullChain(scope: Scope) {
            let container = Container()
            container.register(Parent.self, scope: scope) { _ in Parent() }
                .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self, scope: .graph) { r in
                _ = try r.resolve(Leaf.self)
                return Child(parent: Parent())
            }
            container.register(Leaf.self, scope: .unique) { r in
                _ = try r.resolve(Child.self)
                return Leaf()
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(Parent.self) }
            #expect(error?.code == .circularDependency)
            #expect(error?.pathDescription == "Parent > Child > Leaf > Child")
        }

        @Test func aFactoryIsReEnteredWheneverACompletionBelowItsLatestRunAsksForIt() throws {
            let container = Container()
            let built = Log()
            container.register(InitializedParent.self) { r in
                built.append("parent")
                let child = try r.resolve(CompletingChild.self)
                _ = try r.resolve(Animal.self)
                return InitializedParent(child: child)
            }
            container.register(CompletingChild.self) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }
            container.register(Animal.self) { _ in
                built.append("animal")
                return Animal()
            }
            .initCompleted { r, _ in _ = try r.resolve(InitializedParent.self) }
            let parent = try container.resolve(InitializedParent.self)
            #expect(parent.child.parent === parent)
            // The child's completion re-entered the parent, whose second run built the animal; the animal's
            // completion, running below that second run, re-entered it once more, and that third parent is kept.
            #expect(built.all == ["parent", "parent", "animal", "parent"])
        }

        @Test func aUniqueParentCannotBeReEnteredFromItsChildsCompletion() {
            let container = Container()
            container.register(InitializedParent.self, scope: .unique) { r in
                InitializedParent(child: try r.resolve(CompletingChild.self))
            }
            container.register(CompletingChild.self) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(InitializedParent.self) }
            #expect(error?.code == .circularDependency)
            #expect(error?.pathDescription == "InitializedParent > CompletingChild > InitializedParent")
        }

        @Test func aCycleOfInitializersAloneIsStillACycle() {
            let container = Container()
            container.register(FourB.self) { r in FourB(c: try r.resolve()) }
            container.register(FourC.self) { r in
                _ = try r.resolve(FourB.self)
                return FourC(d: FourD())
            }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(FourB.self) }
            #expect(error?.pathDescription == "FourB > FourC > FourB")
        }

        @Test(arguments: Scope.allScopes)
        func verifyRecordsWhatACompletionResolves(scope: Scope) throws {
            let container = Container()
            container.register(Animal.self, scope: scope) { _ in Animal() }
                .initCompleted { r, animal in animal.food = try r.resolve(Food.self) }
            container.register(Food.self) { _ in Food() }
            container.register(PetOwner.self) { r in PetOwner(animal: try r.resolve()) }
            let graph = try container.verify()
            #expect(graph.edges.map(\.description) == ["Animal -> Food", "PetOwner -> Animal"])
        }

        @Test func verifyRecordsBothEdgesOfACircularPair() throws {
            let container = Container()
            container.register(InitializedParent.self, scope: .singleton) { r in
                InitializedParent(child: try r.resolve(CompletingChild.self))
            }
            container.register(CompletingChild.self, scope: .singleton) { _ in CompletingChild() }
                .initCompleted { r, child in child.parent = try r.resolve(InitializedParent.self) }
            let graph = try container.verify()
            #expect(
                graph.edges.map(\.description) == [
                    "CompletingChild -> InitializedParent", "InitializedParent -> CompletingChild",
                ])
        }
    }
}
