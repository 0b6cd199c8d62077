import Foundation
import Patchbay
import Synchronization
import Testing

extension ContainerTests {
    @Suite(.timeLimit(.minutes(2))) struct Concurrency {
        @Test func aSingletonFactoryRunsExactlyOnceUnderContention() throws {
            for _ in 0..<5 {
                let container = Container()
                let built = Counter()
                let arrived = Counter()
                container.register(Leaf.self, scope: .singleton) { _ in
                    built.increment()
                    // Hold the factory open until every racer has asked for the singleton.
                    let deadline = ContinuousClock.now + .seconds(5)
                    while arrived.count < 8 && ContinuousClock.now < deadline { usleep(100) }
                    usleep(2_000)
                    return Leaf()
                }
                let identities = Mutex<Set<ObjectIdentifier>>([])
                let finished = DispatchGroup()
                for _ in 0..<8 {
                    finished.enter()
                    Thread {
                        arrived.increment()
                        if let leaf = try? container.resolve(Leaf.self) {
                            identities.withLock { _ = $0.insert(ObjectIdentifier(leaf)) }
                        }
                        finished.leave()
                    }.start()
                }
                #expect(finished.wait(timeout: .now() + 10) == .success)
                #expect(built.count == 1)
                #expect(identities.withLock { $0.count } == 1)
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

        @Test func registeringWhileOthersResolve() {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "stable") }
            let failures = Counter()
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
            #expect(failures.count == 0)
            #expect(container.registrations().count == 1 + 2 * 500)
            for worker in [0, 2] {
                for index in [0, 250, 499] {
                    #expect((try? container.resolve(Wallet.self, name: "w\(worker)-\(index)").owner) == "w\(worker)-\(index)")
                }
            }
        }

        @Test func overridingWhileOthersResolveGivesTheOldOrTheNewService() {
            let container = Container()
            container.register(Wallet.self) { _ in Wallet(owner: "old") }
            let unexpected = Counter()
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
            #expect(unexpected.count == 0)
        }

        @Test func noContainerWideLockIsHeldWhileAFactoryRuns() throws {
            let container = Container()
            let otherResolved = DispatchSemaphore(value: 0)
            let slowStarted = DispatchSemaphore(value: 0)
            container.register(Leaf.self, scope: .singleton) { _ in
                slowStarted.signal()
                // Waits until another thread has resolved and registered; with a
                // lock held here that would time out.
                guard otherResolved.wait(timeout: .now() + 5) == .success else {
                    throw FactoryFailure(reason: "another resolution was blocked")
                }
                return Leaf()
            }
            container.register(Wallet.self, scope: .singleton) { _ in Wallet(owner: "fast") }
            let slowSucceeded = Mutex(false)
            let thread = DispatchQueue(label: "slow")
            let done = DispatchSemaphore(value: 0)
            thread.async {
                let succeeded = (try? container.resolve(Leaf.self)) != nil
                slowSucceeded.withLock { $0 = succeeded }
                done.signal()
            }
            #expect(slowStarted.wait(timeout: .now() + 5) == .success)
            #expect(try container.resolve(Wallet.self).owner == "fast")
            container.register(Int.self) { _ in 1 }
            #expect(try container.resolve(Int.self) == 1)
            otherResolved.signal()
            #expect(done.wait(timeout: .now() + 5) == .success)
            #expect(slowSucceeded.withLock { $0 })
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

        @Test func graphScopeIsPerThread() {
            let container = Container()
            container.register(Leaf.self) { _ in Leaf() }
            container.register(LeftBranch.self) { r in LeftBranch(leaf: try r.resolve()) }
            container.register(RightBranch.self) { r in RightBranch(leaf: try r.resolve()) }
            container.register(Trunk.self) { r in Trunk(left: try r.resolve(), right: try r.resolve()) }
            let shared = Counter()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<200 {
                    if let trunk = try? container.resolve(Trunk.self), trunk.left.leaf === trunk.right.leaf {
                        shared.increment()
                    }
                }
            }
            #expect(shared.count == 8 * 200)
        }
    }
}
