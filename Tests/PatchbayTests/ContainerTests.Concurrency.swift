import Foundation
@testable import Patchbay
import Synchronization
import Testing

extension ContainerTests {
    /// Threads racing on one container. Every test that blocks does so on a dedicated thread, never on
    /// one of the cooperative pool's; threads meet on signals, and each time limit only catches a hang.
    @Suite(.timeLimit(.minutes(2))) struct Concurrency {
        @Test func aSingletonFactoryRunsExactlyOnceUnderContention() async {
            let racers = 8
            let outcomes = await DedicatedThread.run { () -> [(built: Int, instances: Int, finished: Bool)] in
                (0..<5).map { _ in
                    let container = Container()
                    let built = Counter()
                    container.register(Leaf.self, scope: .singleton) { _ in
                        built.increment()
                        // Hold the factory open until the other racers wait for its creation. NB: nothing
                        // signals "blocked on a lock", so this polls the engine's record of waiting threads;
                        // the limit only catches a hang, and letting go early would still build once.
                        let deadline = ContinuousClock.now + .seconds(60)
                        while CreationWaits.count < racers - 1 && ContinuousClock.now < deadline { sched_yield() }
                        return Leaf()
                    }
                    let threads = (0..<racers).map { _ in
                        JoinableThread { (try? container.resolve(Leaf.self)).map(ObjectIdentifier.init) }
                    }
                    let identities = threads.map { $0.join() }
                    return (
                        built.count, Set(identities.compactMap { $0 ?? nil }).count,
                        identities.allSatisfy { $0 != nil }
                    )
                }
            }
            for outcome in outcomes {
                #expect(outcome.finished)
                #expect(outcome.built == 1)
                #expect(outcome.instances == 1)
            }
        }

        @Test func manyTasksResolvingOneSingletonShareOneInstance() async throws {
            let container = Container()
            let built = Counter()
            container.register(Leaf.self, scope: .singleton) { _ in
                built.increment()
                return Leaf()
            }
            let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<200 {
                    group.addTask { ObjectIdentifier(try container.resolve(Leaf.self)) }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(built.count == 1)
            #expect(identities.count == 1)
        }

        @Test func registeringWhileOthersResolve() async {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "stable") }
            let failures = Counter()
            await DedicatedThread.run {
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    for index in 0..<500 {
                        if worker % 2 == 0 {
                            // Writers: new keys, enough to grow the table several times.
                            let name = "w\(worker)-\(index)"
                            container.register(Wallet.self, name: name) { _ in Wallet(owner: name) }
                        } else {
                            if (try? container.resolve(Wallet.self).owner) != "stable" { failures.increment() }
                        }
                    }
                }
            }
            #expect(failures.count == 0)
            #expect(container.registrations().count == 1 + 2 * 500)
            for worker in [0, 2] {
                for index in [0, 250, 499] {
                    #expect((try? container.resolve(Wallet.self, name: "w\(worker)-\(index)").owner) == "w\(worker)-\(index)")
                }
            }
        }

        @Test func overridingWhileOthersResolveGivesTheOldOrTheNewService() async {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "old") }
            let unexpected = Counter()
            await DedicatedThread.run {
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    for index in 0..<1_000 {
                        if worker == 0 {
                            container.register(Wallet.self) { _ in Wallet(owner: index % 2 == 0 ? "new" : "old") }
                        } else {
                            let owner = try? container.resolve(Wallet.self).owner
                            if owner != "old" && owner != "new" { unexpected.increment() }
                        }
                    }
                }
            }
            #expect(unexpected.count == 0)
        }

        @Test func noContainerWideLockIsHeldWhileAFactoryRuns() async throws {
            let container = Container()
            let otherResolved = DispatchSemaphore(value: 0)
            let slowStarted = DispatchSemaphore(value: 0)
            container.register(Leaf.self, scope: .singleton) { _ in
                slowStarted.signal()
                // Waits until another thread has resolved and registered; with a
                // lock held here that would never happen, and the limit catches it.
                guard otherResolved.wait(timeout: .now() + 60) == .success else {
                    throw FactoryFailure(reason: "another resolution was blocked")
                }
                return Leaf()
            }
            container.register(Wallet.self, scope: .singleton) { _ in Wallet(owner: "fast") }
            let (started, owner, registered, slowSucceeded) = try await DedicatedThread.run(throwing: {
                let slow = JoinableThread { (try? container.resolve(Leaf.self)) != nil }
                guard slowStarted.wait(timeout: .now() + 60) == .success else { return (false, "", 0, false) }
                let owner = try container.resolve(Wallet.self).owner
                container.register(Int.self) { _ in 1 }
                let registered = try container.resolve(Int.self)
                otherResolved.signal()
                return (true, owner, registered, slow.join() == true)
            })
            #expect(started)
            #expect(owner == "fast")
            #expect(registered == 1)
            #expect(slowSucceeded)
        }

        @Test func aFactoryMayResolveReentrantly() throws {
            let container = Container()
            container.register(Leaf.self, scope: .singleton) { _ in Leaf() }
            // NB: unowned, since a factory that holds its own container strongly keeps it alive.
            container.register(LeftBranch.self, scope: .singleton) { [unowned container] r in
                container.register(Int.self) { _ in 5 }  // registering from inside a factory
                _ = try r.resolve(Int.self)
                return LeftBranch(leaf: try r.resolve(Leaf.self))
            }
            #expect(try container.resolve(LeftBranch.self).leaf === container.resolve(Leaf.self))
        }

        @Test func aCrossThreadSingletonCycleFailsInsteadOfDeadlocking() async {
            let errors = await CrossThreadCycle.resolveBoth(in: Container())
            #expect(errors.map { $0?.code } == [.circularDependency, .circularDependency])
            // One thread finds it before waiting for the other; the other then meets it on its own path.
            #expect(errors.filter { $0?.description.contains("(found across threads)") == true }.count == 1)
        }

        @Test func graphScopeIsPerThread() async {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            container.register(LeftBranch.self) { r in LeftBranch(leaf: try r.resolve()) }
            container.register(RightBranch.self) { r in RightBranch(leaf: try r.resolve()) }
            container.register(Trunk.self) { r in Trunk(left: try r.resolve(), right: try r.resolve()) }
            let shared = Counter()
            await DedicatedThread.run {
                DispatchQueue.concurrentPerform(iterations: 8) { _ in
                    for _ in 0..<200 {
                        if let trunk = try? container.resolve(Trunk.self), trunk.left.leaf === trunk.right.leaf {
                            shared.increment()
                        }
                    }
                }
            }
            #expect(shared.count == 8 * 200)
        }
    }
}
