import Foundation
import Patchbay
import Synchronization
import Testing

extension ContainerTests {
    /// `creationWaitLimit`: a resolve that waits for another thread's creation gives up, naming what it waited for.
    @Suite(.timeLimit(.minutes(1))) struct WaitLimit {
        @Test func aSingletonFactoryWaitingOnAThreadThatResolvesItFailsThatThreadInsteadOfHanging() throws {
            let container = Container(creationWaitLimit: .milliseconds(100))
            let failure = Mutex<ResolutionError?>(nil)
            container.register(LeftBranch.self, scope: .unique) { r in LeftBranch(leaf: try r.resolve()) }
            container.register(Leaf.self, scope: .singleton) { r in
                // The factory waits for a thread that needs this very singleton: without a limit, neither returns.
                let finished = DispatchSemaphore(value: 0)
                Thread {
                    do throws(ResolutionError) {
                        _ = try r.resolve(LeftBranch.self)
                    } catch {
                        failure.withLock { $0 = error }
                    }
                    finished.signal()
                }.start()
                guard finished.wait(timeout: .now() + 10) == .success else {
                    throw FactoryFailure(reason: "the other thread never finished")
                }
                return Leaf()
            }
            let leaf = try container.resolve(Leaf.self)
            #expect(try container.resolve(Leaf.self) === leaf)
            let error = try #require(failure.withLock { $0 })
            #expect(error.code == .waitLimitExceeded)
            #expect(error.pathDescription == "LeftBranch > Leaf")
            #expect(error.requested.description == "Leaf")
            #expect(
                error.description == """
                    Gave up on Leaf [singleton] after waiting 0.1 seconds: another thread is still creating it.
                      Resolution path: LeftBranch > Leaf
                      A singleton factory runs under its registration's creation lock, so that it runs once; \
                    every other thread that asks for Leaf meanwhile waits for it to return.

                    To fix you can do one of two things:
                      • If the factory waits for another thread (a semaphore, a queue, a task), make sure that thread \
                    does not resolve Leaf: it would wait for the factory, and the factory for it.
                      • Or, if the factory is only slow, raise the container's `creationWaitLimit`.
                    """)
        }

        @Test(arguments: [Scope.singleton, .cached, .shared])
        func aResolveRacingASlowCreationGivesUpAfterTheLimitAndTheCreationStillSucceeds(scope: Scope) throws {
            let container = Container(creationWaitLimit: .milliseconds(50))
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let built = Counter()
            container.register(Leaf.self, scope: scope) { _ in
                built.increment()
                started.signal()
                guard release.wait(timeout: .now() + 10) == .success else {
                    throw FactoryFailure(reason: "never released")
                }
                return Leaf()
            }
            let creator = Mutex<ObjectIdentifier?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                let leaf = (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init)
                creator.withLock { $0 = leaf }
                done.signal()
            }.start()
            #expect(started.wait(timeout: .now() + 10) == .success)
            let clock = ContinuousClock()
            let start = clock.now
            let error = #expect(throws: ResolutionError.self) { try container.resolve(Leaf.self) }
            #expect(clock.now - start >= .milliseconds(50))
            #expect(error?.code == .waitLimitExceeded)
            #expect(error?.description.contains("another thread is still creating it") == true)
            release.signal()
            #expect(done.wait(timeout: .now() + 10) == .success)
            let made = try #require(creator.withLock { $0 })
            if scope != .shared {
                #expect(try ObjectIdentifier(container.resolve(Leaf.self)) == made)
            }
            #expect(built.count == 1)
        }

        @Test func withoutALimitARacingResolveWaitsForTheCreation() throws {
            let container = Container()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            container.register(Leaf.self, scope: .singleton) { _ in
                started.signal()
                _ = release.wait(timeout: .now() + 10)
                return Leaf()
            }
            let waiter = Mutex<[ObjectIdentifier]>([])
            let done = DispatchSemaphore(value: 0)
            Thread {
                let leaf = (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init)
                waiter.withLock { $0 += leaf.map { [$0] } ?? [] }
                done.signal()
            }.start()
            #expect(started.wait(timeout: .now() + 10) == .success)
            Thread {
                let leaf = (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init)
                waiter.withLock { $0 += leaf.map { [$0] } ?? [] }
                done.signal()
            }.start()
            release.signal()
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(done.wait(timeout: .now() + 10) == .success)
            let leaf = ObjectIdentifier(try container.resolve(Leaf.self))
            #expect(waiter.withLock { $0 } == [leaf, leaf])
        }

        @Test func aChildInheritsItsParentsLimitUnlessItSetsItsOwn() {
            let parent = Container(creationWaitLimit: .seconds(2))
            #expect(Container(parent: parent).creationWaitLimit == .seconds(2))
            #expect(Container(parent: parent, creationWaitLimit: .seconds(1)).creationWaitLimit == .seconds(1))
            #expect(Container().creationWaitLimit == nil)
        }

        @Test func aCrossThreadCycleIsStillThrownAtOnceWithALimit() async {
            let clock = ContinuousClock()
            let start = clock.now
            let errors = await CrossThreadCycle.resolveBoth(in: Container(creationWaitLimit: .seconds(30)))
            #expect(errors.map { $0?.code } == [.circularDependency, .circularDependency])
            #expect(errors.filter { $0?.description.contains("(found across threads)") == true }.count == 1)
            // Found before waiting, so long before the limit.
            #expect(clock.now - start < .seconds(10))
        }
    }
}
