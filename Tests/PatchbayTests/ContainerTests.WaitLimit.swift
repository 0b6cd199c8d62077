import Foundation
import Patchbay
import Synchronization
import Testing

extension ContainerTests {
    /// `creationWaitLimit`: a resolve that waits for another thread's creation gives up, naming what it waited for.
    ///
    /// Every test blocks on a dedicated thread, never on one of the cooperative pool's. A test's
    /// threads meet on semaphores; each semaphore's time limit only catches a hang.
    @Suite(.timeLimit(.minutes(2))) struct WaitLimit {
        @Test func aSingletonFactoryWaitingOnAThreadThatResolvesItFailsThatThreadInsteadOfHanging() async throws {
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
                guard finished.wait(timeout: .now() + 60) == .success else {
                    throw FactoryFailure(reason: "the other thread never finished")
                }
                return Leaf()
            }
            let same = try await DedicatedThread.run(throwing: {
                let leaf = try container.resolve(Leaf.self)
                return try container.resolve(Leaf.self) === leaf
            })
            #expect(same)
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

        /// What a resolve racing a slow creation saw.
        struct Race: Sendable {
            var waited: Duration = .zero
            var code: ResolutionError.Code?
            var message = ""
            var creatorFinished = false
            var made: ObjectIdentifier?
            var resolvedAfter: ObjectIdentifier?
        }

        @Test(arguments: [Scope.singleton, .cached, .shared])
        func aResolveRacingASlowCreationGivesUpAfterTheLimitAndTheCreationStillSucceeds(scope: Scope) async throws {
            let container = Container(creationWaitLimit: .milliseconds(50))
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let built = Counter()
            container.register(Leaf.self, scope: scope) { _ in
                built.increment()
                started.signal()
                // The creation lasts until the racing resolve has given up: it cannot end first.
                guard release.wait(timeout: .now() + 60) == .success else {
                    throw FactoryFailure(reason: "never released")
                }
                return Leaf()
            }
            let race = await DedicatedThread.run { () -> Race? in
                let creator = JoinableThread { (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init) }
                guard started.wait(timeout: .now() + 60) == .success else { return nil }
                var race = Race()
                let clock = ContinuousClock()
                let start = clock.now
                do throws(ResolutionError) {
                    _ = try container.resolve(Leaf.self)
                } catch {
                    race.code = error.code
                    race.message = error.description
                }
                race.waited = clock.now - start
                release.signal()
                let made = creator.join()
                race.creatorFinished = made != nil
                race.made = made ?? nil
                // A shared instance nobody holds is gone by now; the others are kept.
                if scope != .shared {
                    race.resolvedAfter = (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init)
                }
                return race
            }
            let result = try #require(race)
            // A lower bound, which no load can break: it waited the whole limit before giving up.
            #expect(result.waited >= .milliseconds(50))
            #expect(result.code == .waitLimitExceeded)
            #expect(result.message.contains("another thread is still creating it"))
            #expect(result.creatorFinished)
            #expect(result.made != nil)
            if scope != .shared {
                #expect(result.resolvedAfter == result.made)
            }
            #expect(built.count == 1)
        }

        @Test func withoutALimitARacingResolveWaitsForTheCreation() async {
            let container = Container()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            container.register(Leaf.self, scope: .singleton) { _ in
                started.signal()
                _ = release.wait(timeout: .now() + 60)
                return Leaf()
            }
            let (resolved, leaf) = await DedicatedThread.run { () -> ([ObjectIdentifier?], ObjectIdentifier?) in
                let first = JoinableThread { (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init) }
                guard started.wait(timeout: .now() + 60) == .success else { return ([], nil) }
                let second = JoinableThread { (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init) }
                release.signal()
                return (
                    [first.join() ?? nil, second.join() ?? nil],
                    (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init)
                )
            }
            #expect(leaf != nil)
            #expect(resolved == [leaf, leaf])
        }

        @Test func aChildInheritsItsParentsLimitUnlessItSetsItsOwn() {
            let parent = Container(creationWaitLimit: .seconds(2))
            #expect(Container(parent: parent).creationWaitLimit == .seconds(2))
            #expect(Container(parent: parent, creationWaitLimit: .seconds(1)).creationWaitLimit == .seconds(1))
            #expect(Container().creationWaitLimit == nil)
        }

        @Test func aCrossThreadCycleIsStillThrownAtOnceWithALimit() async {
            // Found before either thread waits: had one waited, it would have given up after the limit
            // with waitLimitExceeded, not circularDependency. So the codes prove it, not a clock.
            let errors = await CrossThreadCycle.resolveBoth(in: Container(creationWaitLimit: .seconds(30)))
            #expect(errors.map { $0?.code } == [.circularDependency, .circularDependency])
            #expect(errors.filter { $0?.description.contains("(found across threads)") == true }.count == 1)
        }
    }
}
