import Foundation
@testable import Patchbay
import Synchronization
import Testing

extension ContainerTests {
    /// `CustomScope`: instances kept in a scope of the caller's, until its `reset()`.
    @Suite(.timeLimit(.minutes(10))) struct CustomScopes {
        @Test func oneRequestSharesAnInstanceAndTheNextRequestGetsAnother() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            container.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
            container.register(LeftBranch.self, scope: .unique) { r in LeftBranch(leaf: try r.resolve()) }

            func handleRequest() throws -> (Leaf, LeftBranch) {
                defer { request.reset() }
                return (try container.resolve(Leaf.self), try container.resolve(LeftBranch.self))
            }
            let (first, firstBranch) = try handleRequest()
            let (second, secondBranch) = try handleRequest()
            #expect(firstBranch.leaf === first, "one instance within a request, across top-level resolves")
            #expect(secondBranch.leaf === second)
            #expect(first !== second, "the next request gets its own")
        }

        @Test func resetReleasesTheInstancesAndTheNextResolveMakesANewOne() throws {
            let session = CustomScope(name: "session")
            let container = Container()
            let built = Counter()
            container.register(Leaf.self, scope: .custom(session)) { _ in
                built.increment()
                return Leaf()
            }
            let released = WeakReference<Leaf>()
            var leaf: Leaf? = try container.resolve(Leaf.self)
            released.object = leaf
            #expect(try container.resolve(Leaf.self) === leaf)
            leaf = nil
            #expect(released.object != nil, "the scope keeps it")
            session.reset()
            #expect(released.object == nil, "reset released it")
            #expect(session.count == 0)
            _ = try container.resolve(Leaf.self)
            #expect(built.count == 2)
        }

        @Test func resetOfOneServiceKeepsTheOthers() throws {
            let session = CustomScope(name: "session")
            let container = Container()
            container.register(Leaf.self, scope: .custom(session)) { _ in Leaf() }
            container.register(Leaf.self, name: "other", scope: .custom(session)) { _ in Leaf() }
            container.register(Parent.self, scope: .custom(session)) { _ in Parent() }
            let leaf = try container.resolve(Leaf.self)
            let other = try container.resolve(Leaf.self, name: "other")
            let parent = try container.resolve(Parent.self)
            session.reset(Leaf.self)
            #expect(try container.resolve(Leaf.self) !== leaf)
            #expect(try container.resolve(Leaf.self, name: "other") === other)
            #expect(try container.resolve(Parent.self) === parent)
        }

        @Test func twoScopesKeepTheirInstancesApart() throws {
            let request = CustomScope(name: "request")
            let session = CustomScope(name: "session")
            let container = Container()
            container.register(Leaf.self, name: "request", scope: .custom(request)) { _ in Leaf() }
            container.register(Leaf.self, name: "session", scope: .custom(session)) { _ in Leaf() }
            let perSession = try container.resolve(Leaf.self, name: "session")
            let perRequest = try container.resolve(Leaf.self, name: "request")
            request.reset()
            #expect(try container.resolve(Leaf.self, name: "session") === perSession)
            #expect(try container.resolve(Leaf.self, name: "request") !== perRequest)
        }

        @Test func scopesAreEqualOnlyForTheSameStorage() {
            let request = CustomScope(name: "request")
            #expect(Scope.custom(request) == .custom(request))
            #expect(Scope.custom(request) != .custom(CustomScope(name: "request")))
            #expect(Scope.custom(request) != .cached)
            #expect(Set([Scope.custom(request), .custom(request), .cached]).count == 2)
        }

        @Test func theScopeOptionMovesARegistrationIntoACustomScope() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }.scope(.custom(request))
            let leaf = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === leaf)
            request.reset()
            #expect(try container.resolve(Leaf.self) !== leaf)
        }

        @Test func aValueTypeIsKeptAndReleasedToo() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            let built = Counter()
            container.register(LargeValue.self, scope: .custom(request)) { _ in
                LargeValue(a: built.increment())
            }
            #expect(try container.resolve(LargeValue.self).a == 1)
            #expect(try container.resolve(LargeValue.self).a == 1)
            request.reset()
            #expect(try container.resolve(LargeValue.self).a == 2)
        }

        @Test func aForwardedTypeSharesTheScopesInstance() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            container.register(BitcoinPriceFetcher.self, scope: .custom(request)) { _ in
                BitcoinPriceFetcher(networking: StubNetworking())
            }
            .implements((any PriceFetching).self)
            let fetcher = try container.resolve(BitcoinPriceFetcher.self)
            #expect(try container.resolve((any PriceFetching).self) as AnyObject === fetcher)
            request.reset()
            #expect(try container.resolve((any PriceFetching).self) as AnyObject !== fetcher)
        }

        @Test func instancesGoWithTheirContainer() throws {
            let request = CustomScope(name: "request")
            let released = WeakReference<Leaf>()
            do {
                let container = Container()
                container.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
                released.object = try container.resolve(Leaf.self)
                #expect(request.count == 1)
            }
            #expect(request.count == 0)
            #expect(released.object == nil)
        }

        // MARK: - Parent and child containers

        @Test func aChildResolvesTheParentsInstanceAndTheParentsFactoryUsesTheParentsRegistrations() throws {
            let request = CustomScope(name: "request")
            let parent = Container()
            let childLeaves = Counter()
            parent.register(Leaf.self, scope: .unique) { _ in Leaf() }
            parent.register(LeftBranch.self, scope: .custom(request)) { r in LeftBranch(leaf: try r.resolve()) }
            let child = Container(parent: parent)
            child.register(Leaf.self, scope: .unique) { _ in
                childLeaves.increment()
                return Leaf()
            }

            let throughChild = try child.resolve(LeftBranch.self)
            #expect(try parent.resolve(LeftBranch.self) === throughChild)
            #expect(childLeaves.count == 0, "built from the container that registered it, as cached is")
            request.reset()
            let next = try child.resolve(LeftBranch.self)
            #expect(next !== throughChild)
            #expect(try parent.resolve(LeftBranch.self) === next)
        }

        @Test func aChildThatRegistersTheSameKeyGetsItsOwnInstanceAndResetDropsBoth() throws {
            let request = CustomScope(name: "request")
            let parent = Container()
            parent.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
            let child = Container(parent: parent)
            child.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
            let fromParent = try parent.resolve(Leaf.self)
            let fromChild = try child.resolve(Leaf.self)
            #expect(fromParent !== fromChild)
            #expect(try child.resolve(Leaf.self) === fromChild)
            request.reset()
            #expect(try parent.resolve(Leaf.self) !== fromParent)
            #expect(try child.resolve(Leaf.self) !== fromChild)
        }

        @Test func aContainersResetDropsOnlyItsOwnRegistrationsInstances() throws {
            let request = CustomScope(name: "request")
            let parent = Container()
            parent.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
            let child = Container(parent: parent)
            child.register(Leaf.self, name: "child", scope: .custom(request)) { _ in Leaf() }
            let fromParent = try child.resolve(Leaf.self)
            let fromChild = try child.resolve(Leaf.self, name: "child")
            child.reset(.custom(request), includingParents: false)
            #expect(try child.resolve(Leaf.self) === fromParent, "the parent's registration is not the child's to reset")
            #expect(try child.resolve(Leaf.self, name: "child") !== fromChild)
            child.reset(.custom(CustomScope(name: "request")), includingParents: true)
            #expect(try child.resolve(Leaf.self) === fromParent, "another scope of the same name is another scope")
        }

        // MARK: - Concurrency

        @Test func racingThreadsGetOneInstanceMadeExactlyOnce() async {
            let racers = 8
            let outcomes = await DedicatedThread.run { () -> [(built: Int, instances: Int, failures: Int)] in
                (0..<5).map { _ in
                    let request = CustomScope(name: "request")
                    let container = Container()
                    let built = Counter()
                    container.register(Leaf.self, scope: .custom(request)) { _ in
                        built.increment()
                        // Hold the factory until the other racers wait for its creation. NB: polls the
                        // engine's record of waiting threads, which no signal reports; the limit only
                        // catches a hang, and letting go early would still build once.
                        let deadline = ContinuousClock.now + .seconds(60)
                        while CreationWaits.count < racers - 1 && ContinuousClock.now < deadline { sched_yield() }
                        return Leaf()
                    }
                    let threads = (0..<racers).map { _ in
                        JoinableThread { (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init) }
                    }
                    let identities = threads.map { $0.join() ?? nil }
                    return (built.count, Set(identities.compactMap { $0 }).count, identities.count { $0 == nil })
                }
            }
            for outcome in outcomes {
                #expect(outcome.failures == 0)
                #expect(outcome.built == 1)
                #expect(outcome.instances == 1)
            }
        }

        @Test func resolvesRacingResetsAlwaysGetACompleteInstance() async {
            let request = CustomScope(name: "request")
            let container = Container()
            let built = Counter()
            container.register(LargeValue.self, scope: .custom(request)) { _ in
                built.increment()
                return LargeValue()
            }
            let failures = Counter()
            let resets = 2_000
            let finished = await DedicatedThread.run { () -> Bool in
                let resetter = JoinableThread { for _ in 0..<resets { request.reset() } }
                let resolvers = (0..<3).map { _ in
                    JoinableThread {
                        for _ in 0..<2_000 where (try? container.resolve(LargeValue.self)) != LargeValue() {
                            failures.increment()
                        }
                    }
                }
                return resetter.join() != nil && resolvers.allSatisfy { $0.join() != nil }
            }
            #expect(finished)
            #expect(failures.count == 0)
            #expect(built.count <= resets + 1, "at most one instance per reset")
        }

        @Test func aResetDuringCreationIsNotUndoneByTheCreation() async throws {
            let request = CustomScope(name: "request")
            let container = Container()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let built = Counter()
            container.register(Leaf.self, scope: .custom(request)) { _ in
                built.increment()
                started.signal()
                guard release.wait(timeout: .now() + 60) == .success else {
                    throw FactoryFailure(reason: "never released")
                }
                return Leaf()
            }
            let (resolved, keptAfterReset) = await DedicatedThread.run { () -> (Bool, Int) in
                let creator = JoinableThread { (try? container.resolve(Leaf.self)) != nil }
                guard started.wait(timeout: .now() + 60) == .success else { return (false, -1) }
                // The request ends while its instance is still being made.
                request.reset()
                release.signal()
                return (creator.join() == true, request.count)
            }
            #expect(resolved, "the resolve that made it still gets it")
            #expect(keptAfterReset == 0, "made before the reset, so not kept after it")
            release.signal()  // lets the next creation through at once
            _ = try container.resolve(Leaf.self)
            #expect(built.count == 2)
            #expect(request.count == 1)
        }

        // MARK: - Messages and graphs

        @Test func theScopeIsNamedInListingsAndGraphs() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            container.register(Leaf.self, scope: .custom(request)) { _ in Leaf() }
            container.register(LeftBranch.self, scope: .custom(request)) { r in LeftBranch(leaf: try r.resolve()) }
            #expect(Scope.custom(request).description == "custom(request)")
            #expect(container.registrations().map(\.description).sorted() == [
                "Leaf [custom(request)]", "LeftBranch [custom(request)]",
            ])
            let graph = try container.verify()
            #expect(request.count == 0, "verify() builds in throwaway copies and keeps nothing in the scope")
            #expect(graph.nodes.map(\.scope) == [.custom(request), .custom(request)])
            #expect(
                graph.dot == """
                    digraph Patchbay {
                      rankdir=LR;
                      node [shape=box];
                      n0 [label="Leaf\\n(custom(request))"];
                      n1 [label="LeftBranch\\n(custom(request))"];
                      n1 -> n0;
                    }
                    """)
            #expect(
                graph.mermaid == """
                    graph LR
                      n0["Leaf<br/>(custom(request))"]
                      n1["LeftBranch<br/>(custom(request))"]
                      n1 --> n0
                    """)
        }

        @Test func aWaitThatRunsOutNamesTheCustomScope() throws {
            let request = CustomScope(name: "request")
            let container = Container(creationWaitLimit: .milliseconds(50))
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            container.register(Leaf.self, scope: .custom(request)) { _ in
                started.signal()
                guard release.wait(timeout: .now() + 10) == .success else {
                    throw FactoryFailure(reason: "never released")
                }
                return Leaf()
            }
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = try? container.resolve(Leaf.self)
                done.signal()
            }.start()
            #expect(started.wait(timeout: .now() + 10) == .success)
            let error = #expect(throws: ResolutionError.self) { try container.resolve(Leaf.self) }
            release.signal()
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(error?.code == .waitLimitExceeded)
            #expect(
                error?.description == """
                    Gave up on Leaf [custom(request)] after waiting 0.05 seconds: another thread is still creating it.
                      Resolution path: Leaf
                      A custom(request) factory runs under its registration's creation lock, so that it runs once; \
                    every other thread that asks for Leaf meanwhile waits for it to return.

                    To fix you can do one of two things:
                      • If the factory waits for another thread (a semaphore, a queue, a task), make sure that thread \
                    does not resolve Leaf: it would wait for the factory, and the factory for it.
                      • Or, if the factory is only slow, raise the container's `creationWaitLimit`.
                    """)
        }

        @Test func aCycleThroughACustomScopeIsReportedWithItsPath() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            container.register(CycleA.self, scope: .custom(request)) { r in CycleA(try r.resolve()) }
            container.register(CycleB.self, scope: .custom(request)) { r in CycleB(try r.resolve()) }
            container.register(CycleC.self, scope: .custom(request)) { r in CycleC(try r.resolve()) }
            let error = #expect(throws: ResolutionError.self) { try container.resolve(CycleA.self) }
            #expect(error?.code == .circularDependency)
            #expect(error?.pathDescription == "CycleA > CycleB > CycleC > CycleA")
            #expect(request.count == 0, "nothing half-built is kept")
        }

        @Test func aCircularPairCompletesInACustomScope() throws {
            let request = CustomScope(name: "request")
            let container = Container()
            container.register(Parent.self, scope: .custom(request)) { _ in Parent() }
                .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self, scope: .custom(request)) { r in Child(parent: try r.resolve(Parent.self)) }
            let parent = try container.resolve(Parent.self)
            #expect(parent.child?.parent === parent)
            #expect(try container.resolve(Child.self) === parent.child)
        }
    }
}
