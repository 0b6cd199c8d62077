import Patchbay

/// Two singletons whose factories each need the other's, resolved at once on two threads.
///
/// Each factory goes on only once the other thread is inside its own factory,
/// so the cycle is always across threads: one thread finds it before waiting
/// for the other's creation, and the other then meets it on its own path.
enum CrossThreadCycle {
    /// Registers `CycleA` and `CycleB` as singletons in `container`, and resolves each on a thread of its own.
    ///
    /// - Parameter afterwards: Runs on each of the two threads once its resolve has returned.
    /// - Returns: What resolving `CycleA` and then `CycleB` threw, or nil for one that returned.
    static func resolveBoth(
        in container: Container, afterwards: @escaping @Sendable () -> Void = {}
    ) async -> [ResolutionError?] {
        let aStarted = Latch()
        let bStarted = Latch()
        container.register(CycleA.self, scope: .singleton) { r in
            aStarted.open()
            try bStarted.wait()
            _ = try r.resolve(CycleB.self)
            return CycleA(CycleB(CycleC(try r.resolve(CycleA.self))))
        }
        container.register(CycleB.self, scope: .singleton) { r in
            bStarted.open()
            try aStarted.wait()
            return CycleB(CycleC(try r.resolve(CycleA.self)))
        }
        // NB: both threads start at once, without waiting for the cooperative pool, and meet on the latches.
        return await DedicatedThread.run { () -> [ResolutionError?] in
            let a = JoinableThread {
                failure(then: afterwards) { () throws(ResolutionError) in _ = try container.resolve(CycleA.self) }
            }
            let b = JoinableThread {
                failure(then: afterwards) { () throws(ResolutionError) in _ = try container.resolve(CycleB.self) }
            }
            return [a.join() ?? nil, b.join() ?? nil]
        }
    }

    /// What `resolve` threw, or nil; runs `afterwards` either way.
    private static func failure(
        then afterwards: () -> Void, _ resolve: () throws(ResolutionError) -> Void
    ) -> ResolutionError? {
        defer { afterwards() }
        do throws(ResolutionError) {
            try resolve()
            return nil
        } catch {
            return error
        }
    }
}
