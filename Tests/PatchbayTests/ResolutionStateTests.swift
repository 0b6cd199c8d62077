import Foundation
import Synchronization
import Testing

@testable import Patchbay

/// The engine's per-thread state through each of its transitions.
///
/// In a debug build, ``ResolutionState/checkInvariants()`` runs at every
/// change on the way, and stops the process on the first inconsistency; each
/// test also checks, in any build, that the thread is left at rest, so that
/// the next top-level resolve starts clean.
@Suite(.timeLimit(.minutes(10))) struct ResolutionStateTests {
    /// What the calling thread's state holds; between top-level resolves, ``atRest``.
    struct Snapshot: Equatable, Sendable {
        var depth = 0
        var completing = 0
        var graphInstances = 0
        var arenaBytes = 0
        var isEndingGraph = false
        var isWaiting = false

        static let atRest = Snapshot()

        static var current: Snapshot {
            let state = ResolutionState.current.pointee
            return Snapshot(
                depth: state.depth, completing: state.completing, graphInstances: state.graphCount,
                arenaBytes: state.arenaUsed, isEndingGraph: state.isEndingGraph,
                isWaiting: CreationWaits.isWaiting(ResolutionState.currentThread))
        }
    }

    /// One way through the engine on the calling thread, and the code it should end in (nil: a value).
    struct Transition: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let expected: ResolutionError.Code?
        let resolve: @Sendable () throws(ResolutionError) -> Void
    }

    static let transitions: [Transition] = [
        Transition(testDescription: "a cycle of unique instances", expected: .circularDependency) { () throws(ResolutionError) in
            _ = try cycle(scope: .unique).resolve(CycleA.self)
        },
        Transition(testDescription: "a cycle of singletons", expected: .circularDependency) { () throws(ResolutionError) in
            _ = try cycle(scope: .singleton).resolve(CycleA.self)
        },
        Transition(testDescription: "a throw below graph instances already kept", expected: .factoryFailed) { () throws(ResolutionError) in
            let container = Container()
            container.register(Leaf.self, scope: .graph) { _ in Leaf() }
            container.register(LeftBranch.self, scope: .graph) { r in LeftBranch(leaf: try r.resolve()) }
            container.register(RightBranch.self, scope: .graph) { _ in throw FactoryFailure(reason: "mid-graph") }
            container.register(Trunk.self) { r in Trunk(left: try r.resolve(), right: try r.resolve()) }
            _ = try container.resolve(Trunk.self)
        },
        Transition(testDescription: "a throw inside a singleton's factory", expected: .factoryFailed) { () throws(ResolutionError) in
            let container = Container()
            container.register(Leaf.self, scope: .singleton) { _ in throw FactoryFailure(reason: "singleton") }
            container.register(LeftBranch.self, scope: .cached) { r in LeftBranch(leaf: try r.resolve()) }
            _ = try container.resolve(LeftBranch.self)
        },
        Transition(testDescription: "a throw inside initCompleted", expected: .factoryFailed) { () throws(ResolutionError) in
            let container = Container()
            container.register(Parent.self, scope: .singleton) { _ in Parent() }
                .initCompleted { _, _ in throw FactoryFailure(reason: "completion") }
            _ = try container.resolve(Parent.self)
        },
        Transition(testDescription: "a completion that re-enters a graph factory", expected: nil) { () throws(ResolutionError) in
            _ = try reentering(scope: .graph).resolve(Parent.self)
        },
        Transition(testDescription: "a completion that re-enters a singleton factory", expected: nil) { () throws(ResolutionError) in
            _ = try reentering(scope: .singleton).resolve(Parent.self)
        },
        Transition(testDescription: "a factory that throws after a completion re-entered it", expected: .factoryFailed) { () throws(ResolutionError) in
            let container = Container()
            let runs = Counter()
            container.register(Parent.self, scope: .singleton) { r in
                let run = runs.increment()
                // The child's completion re-enters this factory, whose second run keeps its instance pending.
                _ = try r.resolve(Child.self)
                if run == 1 { throw FactoryFailure(reason: "after the re-entry") }
                return Parent()
            }.initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
            container.register(Child.self, scope: .cached) { _ in Child(parent: Parent()) }
                .initCompleted { r, _ in _ = try r.resolve(Parent.self) }
            _ = try container.resolve(Parent.self)
        },
        Transition(testDescription: "a chain past the depth limit", expected: .depthLimitExceeded) { () throws(ResolutionError) in
            _ = try deeper(0).resolve(Int.self)
        },
        Transition(testDescription: "graph instances that resolve as they are destroyed", expected: nil) { () throws(ResolutionError) in
            let container = Container()
            let reference = WeakReference<Container>()
            reference.object = container
            container.register(Leaf.self) { _ in Leaf() }
            container.register(ResolvesWhenReleased.self, scope: .graph) { _ in
                ResolvesWhenReleased(container: reference, releases: Counter())
            }
            container.register(LeftBranch.self) { r in
                _ = try r.resolve(ResolvesWhenReleased.self)
                return LeftBranch(leaf: try r.resolve())
            }
            _ = try container.resolve(LeftBranch.self)
        },
    ]

    @Test(arguments: transitions)
    func aResolveLeavesItsThreadAtRest(_ transition: Transition) {
        var code: ResolutionError.Code?
        do throws(ResolutionError) {
            try transition.resolve()
        } catch {
            code = error.code
        }
        #expect(code == transition.expected)
        #expect(Snapshot.current == .atRest)
    }

    @Test func aThreadThatWaitedForAnotherThreadsCreationIsLeftAtRest() async {
        let container = Container()
        let started = Latch()
        let waiter = Mutex<UInt?>(nil)
        container.register(Leaf.self, scope: .singleton) { _ in
            started.open()
            // NB: nothing signals "blocked on a lock", so this polls the record
            // the engine keeps of waiting threads; it is set within microseconds.
            // The limit only catches a hang: the test then fails on the waiter's snapshot.
            let deadline = ContinuousClock.now + .seconds(60)
            while waiter.withLock({ $0 }).map(CreationWaits.isWaiting) != true, ContinuousClock.now < deadline {
                sched_yield()
            }
            return Leaf()
        }
        let (creator, waited) = await DedicatedThread.run { () -> (Snapshot?, Snapshot?) in
            let creator = JoinableThread { () -> Snapshot? in
                guard (try? container.resolve(Leaf.self)) != nil else { return nil }
                return Snapshot.current
            }
            let waited = JoinableThread { () -> Snapshot? in
                guard (try? started.wait()) != nil else { return nil }
                waiter.withLock { $0 = ResolutionState.currentThread }
                guard (try? container.resolve(Leaf.self)) != nil else { return nil }
                return Snapshot.current
            }
            return (creator.join() ?? nil, waited.join() ?? nil)
        }
        #expect(creator == .atRest)
        #expect(waited == .atRest)
    }

    @Test func aThreadThatGaveUpWaitingIsLeftAtRest() async {
        // The creator holds its creation until the other thread has given up, so the 20 ms limit
        // always runs out, however slow the machine: the wait is bounded by a signal, not by the clock.
        let container = Container(creationWaitLimit: .milliseconds(20))
        let started = Latch()
        let release = Latch()
        container.register(Leaf.self, scope: .singleton) { _ in
            started.open()
            try release.wait()
            return Leaf()
        }
        let (gaveUp, creator) = await DedicatedThread.run { () -> ((ResolutionError.Code?, Snapshot)?, Snapshot?) in
            let creator = JoinableThread { () -> Snapshot? in
                guard (try? container.resolve(Leaf.self)) != nil else { return nil }
                return Snapshot.current
            }
            guard (try? started.wait()) != nil else { return (nil, nil) }
            let gaveUp: (ResolutionError.Code?, Snapshot)
            do throws(ResolutionError) {
                _ = try container.resolve(Leaf.self)
                gaveUp = (nil, Snapshot.current)
            } catch {
                gaveUp = (error.code, Snapshot.current)
            }
            release.open()
            return (gaveUp, creator.join() ?? nil)
        }
        #expect(gaveUp?.0 == .waitLimitExceeded)
        #expect(gaveUp?.1 == .atRest)
        #expect(creator == .atRest)
    }

    @Test func bothThreadsOfACrossThreadCycleAreLeftAtRest() async {
        let snapshots = Mutex<[Snapshot]>([])
        let errors = await CrossThreadCycle.resolveBoth(in: Container()) {
            let snapshot = Snapshot.current
            snapshots.withLock { $0.append(snapshot) }
        }
        #expect(errors.map { $0?.code } == [.circularDependency, .circularDependency])
        #expect(snapshots.withLock { $0 } == [.atRest, .atRest])
    }

    #if DEBUG
        @Test func aCorruptedStateStopsTheProcessAtItsNextChange() async {
            // The check runs in a child process, which it stops; the corruption
            // is one a completion left marked running after its factory returned.
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ResolutionState.current.pointee.completing = 2
                let container = Container()
                container.register(Leaf.self) { _ in Leaf() }
                _ = try? container.resolve(Leaf.self)
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("completing is 2 at depth 1"), "\(message)")
        }

        @Test func aRecordedWaitLeftBehindStopsTheProcessAtTheNextFactory() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let container = Container()
                container.register(Leaf.self) { _ in Leaf() }
                let registration = try #require(container.registry.current.first)
                _ = CreationWaits.willWait(ResolutionState.currentThread, for: registration)
                _ = try? container.resolve(Leaf.self)
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("a thread is recorded as waiting while it resolves"), "\(message)")
        }
    #endif

    // MARK: - Containers

    private static func cycle(scope: Scope) -> Container {
        let container = Container(defaultScope: scope)
        container.register(CycleA.self) { r in CycleA(try r.resolve()) }
        container.register(CycleB.self) { r in CycleB(try r.resolve()) }
        container.register(CycleC.self) { r in CycleC(try r.resolve()) }
        return container
    }

    /// A parent whose child is set by `initCompleted`, and a child that needs the parent: the child's resolve re-enters the parent's factory.
    private static func reentering(scope: Scope) -> Container {
        let container = Container()
        container.register(Parent.self, scope: scope) { _ in Parent() }
            .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
        container.register(Child.self, scope: scope) { r in Child(parent: try r.resolve(Parent.self)) }
        return container
    }

    /// A container whose `Int` resolves from a new container each time, so that no registration repeats.
    private static func deeper(_ level: Int) -> Container {
        let container = Container()
        container.register(Int.self) { _ in try deeper(level + 1).resolve(Int.self) }
        return container
    }
}
