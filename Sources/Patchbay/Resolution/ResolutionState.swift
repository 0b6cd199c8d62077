internal import CPatchbay

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The per-thread record of the resolution in progress: its path and its graph-scope instances.
///
/// Factories are synchronous, so a top-level resolve and everything it
/// resolves run on one thread. Keeping the path here, rather than in an object
/// passed to each factory, means a factory receives the plain container as its
/// resolver, and a resolve that needs no factory touches none of this.
///
/// It lives in memory reached through a raw pointer in a C thread-local: no
/// reference counting, no dynamic exclusivity checks, and no allocation after
/// a thread's first resolve. A pthread key frees it when the thread exits.
struct ResolutionState {
    /// An instance made in graph scope during the current top-level resolve.
    ///
    /// The registration is unretained when it belongs to ``root``, which
    /// outlives the top-level resolve; any other container, such as a child
    /// a factory makes and drops, may go first, so its registration is retained.
    struct GraphEntry {
        let registration: Unmanaged<Registration>
        let value: UnsafeMutableRawPointer
        let isInArena: Bool
        let isRetained: Bool
    }

    /// Bytes of graph-scope instances kept without a heap allocation per resolve.
    static var arenaSize: Int { 2048 }

    /// How many registrations are being built, outermost first, in `path`.
    var depth = 0
    let path: UnsafeMutablePointer<Unmanaged<Registration>>
    /// The container whose factory runs outermost: alive until the top-level resolve returns.
    var root: UnsafeRawPointer?
    /// Graph-scope instances, in the order made; a raw buffer, so keeping one retains nothing.
    var graph: UnsafeMutablePointer<GraphEntry>
    var graphCount = 0
    var graphCapacity = 16
    let arena: UnsafeMutableRawPointer
    var arenaUsed = 0
    /// Whether a graph is being taken down, so that one ended inside a deinit leaves the arena alone.
    var isEndingGraph = false
    /// One past the index in `path` of the innermost registration whose `initCompleted` is running, or 0.
    var completing = 0
    /// How many factories have been re-entered from a completion on this thread, ever: a factory
    /// compares it before and after it runs, to learn whether to prefer an instance kept meanwhile.
    var reentries = 0
    /// Where the current graph's instances start in `graph`: above 0 only while a ``Lazy`` resolves
    /// inside a factory in the graph it was made in, which is not the graph being built around it.
    var graphBase = 0
    /// The current graph's record for ``Lazy`` values, retained; nil until one is made inside it.
    var objectGraph: Unmanaged<ObjectGraph>?

    init() {
        path = .allocate(capacity: Container.maximumDepth + 1)
        graph = .allocate(capacity: graphCapacity)
        arena = .allocate(byteCount: ResolutionState.arenaSize, alignment: 16)
    }

    /// The calling thread's state, created on its first use.
    @inline(__always)
    static var current: UnsafeMutablePointer<ResolutionState> {
        if let raw = pb_thread_state() {
            return raw.assumingMemoryBound(to: ResolutionState.self)
        }
        return makeCurrent()
    }

    /// An identity for the calling thread while it lives: the address of its state.
    @inline(__always)
    static var currentThread: UInt {
        UInt(bitPattern: current)
    }

    @inline(never)
    private static func makeCurrent() -> UnsafeMutablePointer<ResolutionState> {
        let state = UnsafeMutablePointer<ResolutionState>.allocate(capacity: 1)
        state.initialize(to: ResolutionState())
        pb_set_thread_state(state)
        pthread_setspecific(stateKey, state)
        return state
    }

    fileprivate static func destroy(_ raw: UnsafeMutableRawPointer?) {
        guard let state = raw?.assumingMemoryBound(to: ResolutionState.self) else { return }
        // NB: the key's destructor runs on the exiting thread, so this clears its own slot.
        pb_set_thread_state(nil)
        state.pointee.path.deallocate()
        state.pointee.graph.deallocate()
        state.pointee.arena.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The path as steps, outermost first.
    var steps: [ResolutionStep] {
        (0..<depth).map { path[$0]._withUnsafeGuaranteedRef(\.step) }
    }

    /// The registration whose factory is running now, if any.
    var innermost: Registration? {
        depth > 0 ? path[depth - 1].takeUnretainedValue() : nil
    }

    /// Enters `registration`'s factory, run with `resolver`.
    ///
    /// - Throws: ``ResolutionError/Code/circularDependency`` if it is already
    ///   on the path, ``ResolutionError/Code/depthLimitExceeded`` past the limit.
    @inline(__always)
    mutating func push(_ registration: Registration, resolver: Container) throws(ResolutionError) {
        if depth == 0 {
            root = UnsafeRawPointer(Unmanaged.passUnretained(resolver).toOpaque())
        }
        let entry = Unmanaged.passUnretained(registration)
        // NB: searched from the innermost out: the latest run of a factory is the one a re-entry must outdo.
        var index = depth
        while index > 0 {
            index -= 1
            if path[index].toOpaque() == entry.toOpaque() {
                try reenter(registration, at: index)
                break
            }
        }
        if depth >= Container.maximumDepth {
            throw .depthLimitExceeded(registration.step, path: steps, limit: Container.maximumDepth)
        }
        path[depth] = entry
        depth += 1
        checkInvariants()
    }

    /// Allows `registration`, whose latest run is on the path at `index`, to be built again from a completion, or throws.
    ///
    /// A completion that asks for a service whose factory has not returned can
    /// only be served by another run of that factory, which then finds the
    /// completing instance kept (see ``RegistrationOptions/initCompleted(_:)``).
    /// As in Swinject, a factory may be run again as often as that helps; it
    /// helps only if something was kept since its latest run began, that is,
    /// if a completion is running below that run, and only if the new run's
    /// instance is kept for the first to find, so not in ``Scope/unique``.
    ///
    /// Each allowed re-entry follows a new instance kept in the graph or a
    /// storing scope, and a graph keeps at most one per registration, so
    /// re-entries end. A repeat with no completion below its latest run is a
    /// chain of factories alone, which no completion can break: Swinject
    /// would recurse until its depth limit; this throws at once with the chain.
    @inline(never)
    mutating func reenter(_ registration: Registration, at index: Int) throws(ResolutionError) {
        guard completing > index + 1, registration.scope.kind != .unique else {
            throw .circularDependency(registration.step, path: steps + [registration.step])
        }
        reentries &+= 1
    }

    /// Leaves the innermost factory; leaving the outermost ends the graph scope.
    ///
    /// NB: static, through the pointer, not `mutating`: ending the graph runs
    /// deinits, which may resolve and so change this state. A mutating
    /// method's exclusive access would let the optimizer keep `graphCount` in a
    /// register across those deinits, and destroy an entry twice.
    @inline(__always)
    static func pop(_ state: UnsafeMutablePointer<ResolutionState>) {
        state.pointee.depth -= 1
        if state.pointee.depth == 0 && (state.pointee.graphCount != 0 || state.pointee.objectGraph != nil) {
            endGraph(state)
        }
        state.pointee.checkInvariants()
    }

    /// The graph-scope instance of `registration` made earlier in this resolve.
    @inline(__always)
    func graphInstance(of registration: Registration) -> UnsafeMutableRawPointer? {
        let wanted = Unmanaged.passUnretained(registration).toOpaque()
        // NB: a while loop, not a range, which would check its bounds on every resolve.
        var index = graphBase
        while index < graphCount {
            if graph[index].registration.toOpaque() == wanted {
                return graph[index].value
            }
            index += 1
        }
        return nil
    }

    /// The current graph's record for a ``Lazy`` made now, created on first use; call only inside a resolution.
    mutating func currentObjectGraph() -> ObjectGraph {
        if let objectGraph {
            return objectGraph.takeUnretainedValue()
        }
        let made = ObjectGraph()
        objectGraph = Unmanaged.passRetained(made)
        return made
    }

    /// What ``enterGraph(_:_:)`` replaced, for ``leaveGraph(_:_:)``.
    struct GraphFrame {
        let base: Int
        let outer: Unmanaged<ObjectGraph>?
        let entered: Unmanaged<ObjectGraph>
    }

    /// Makes `objectGraph` the current graph, for a ``Lazy`` that resolves in the graph it was made in.
    ///
    /// The graph instances of a resolution in progress on this thread, if
    /// any, are hidden until ``leaveGraph(_:_:)``: what the `Lazy` resolves
    /// belongs to its own graph, as in Swinject.
    static func enterGraph(_ state: UnsafeMutablePointer<ResolutionState>, _ objectGraph: ObjectGraph) -> GraphFrame {
        let frame = GraphFrame(
            base: state.pointee.graphBase, outer: state.pointee.objectGraph,
            entered: Unmanaged.passRetained(objectGraph))
        state.pointee.graphBase = state.pointee.graphCount
        state.pointee.objectGraph = frame.entered
        return frame
    }

    /// Records and ends the instances made since ``enterGraph(_:_:)``, and makes the outer graph current again.
    static func leaveGraph(_ state: UnsafeMutablePointer<ResolutionState>, _ frame: GraphFrame) {
        // A resolve that began at depth 0 ended the graph, and released it, when it returned.
        if state.pointee.objectGraph?.toOpaque() == frame.entered.toOpaque() {
            endFrame(state)
            state.pointee.objectGraph = nil
            frame.entered.release()
        }
        state.pointee.graphBase = frame.base
        state.pointee.objectGraph = frame.outer
        state.pointee.checkInvariants()
    }

    /// Records the current graph's instances in its ``ObjectGraph``, if it has one, then destroys them.
    ///
    /// NB: one at a time, re-reading the state and lowering the count before
    /// each destroy, because an instance's deinit may itself resolve, and
    /// end a graph of its own, while this one is being taken down.
    private static func endFrame(_ state: UnsafeMutablePointer<ResolutionState>) {
        let base = state.pointee.graphBase
        if let objectGraph = state.pointee.objectGraph, state.pointee.graphCount > base {
            objectGraph.takeUnretainedValue().record(
                UnsafeMutableBufferPointer(start: state.pointee.graph + base, count: state.pointee.graphCount - base))
        }
        while state.pointee.graphCount > state.pointee.graphBase {
            state.pointee.graphCount -= 1
            let entry = state.pointee.graph[state.pointee.graphCount]
            entry.registration._withUnsafeGuaranteedRef { $0.witness.destroy(entry.value) }
            if !entry.isInArena {
                entry.value.deallocate()
            }
            if entry.isRetained {
                entry.registration.release()
            }
        }
    }

    /// Keeps a copy of `value` for the rest of this top-level resolve.
    ///
    /// - Parameter owner: The container that holds `registration`.
    mutating func keepGraphInstance(of registration: Registration, owner: Container, copying value: UnsafeRawPointer) {
        let witness = registration.witness
        let alignment = Swift.max(witness.alignment, 1)
        let offset = (arenaUsed + alignment - 1) & ~(alignment - 1)
        let storage: UnsafeMutableRawPointer
        let isInArena = alignment <= 16 && offset + witness.size <= ResolutionState.arenaSize
        if isInArena {
            storage = arena + offset
            arenaUsed = offset + witness.size
        } else {
            storage = witness.allocate()
        }
        witness.copy(value, storage)
        if graphCount == graphCapacity {
            growGraph()
        }
        let isRetained = UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque()) != root
        let reference = isRetained ? Unmanaged.passRetained(registration) : Unmanaged.passUnretained(registration)
        (graph + graphCount).initialize(
            to: GraphEntry(registration: reference, value: storage, isInArena: isInArena, isRetained: isRetained))
        graphCount += 1
        checkInvariants()
    }

    @inline(never)
    private mutating func growGraph() {
        let larger = UnsafeMutablePointer<GraphEntry>.allocate(capacity: graphCapacity * 2)
        larger.moveInitialize(from: graph, count: graphCount)
        graph.deallocate()
        graph = larger
        graphCapacity *= 2
    }

    @inline(never)
    private static func endGraph(_ state: UnsafeMutablePointer<ResolutionState>) {
        let isOutermost = !state.pointee.isEndingGraph
        state.pointee.isEndingGraph = true
        let objectGraph = state.pointee.objectGraph
        endFrame(state)
        if let objectGraph, state.pointee.objectGraph?.toOpaque() == objectGraph.toOpaque() {
            state.pointee.objectGraph = nil
            objectGraph.release()
        }
        // Only the outermost may free the arena: a deinit that resolves runs
        // while the bytes of the value being destroyed are still in it.
        if isOutermost {
            state.pointee.isEndingGraph = false
            state.pointee.arenaUsed = 0
        }
    }

    /// In debug builds, checks after every change that the path, the graph
    /// and the counters agree with each other and with the creations this
    /// thread holds; release builds compile it to nothing.
    ///
    /// Checks the innermost path entry and the newest graph instance against
    /// the rest: each was checked so when it was added, so every change is
    /// checked once without an O(*n*²) scan.
    ///
    /// - Complexity: O(*depth* + *graphCount*).
    func checkInvariants() {
        #if DEBUG
            precondition(
                (0...Container.maximumDepth).contains(depth), "depth is \(depth), outside 0...\(Container.maximumDepth)")
            precondition(
                (0...depth).contains(completing),
                "completing is \(completing) at depth \(depth): a completion is marked running below the path")
            precondition(depth == 0 || root != nil, "a resolve is under way with no root container")
            precondition(
                (0...graphCapacity).contains(graphCount), "\(graphCount) graph instances in room for \(graphCapacity)")
            precondition(
                (0...ResolutionState.arenaSize).contains(arenaUsed),
                "\(arenaUsed) arena bytes used of \(ResolutionState.arenaSize)")
            // Only a deinit that resolves while a graph is being taken down sees leftovers at depth 0.
            precondition(
                depth > 0 || isEndingGraph || (graphCount == 0 && arenaUsed == 0 && objectGraph == nil),
                "a finished resolve left \(graphCount) graph instances and \(arenaUsed) arena bytes behind")
            precondition((0...graphCount).contains(graphBase), "the graph starts at \(graphBase) of \(graphCount)")
            let thread = ResolutionState.currentThread
            // A thread waits for a creation only between resolves of its own, never inside a factory it runs.
            precondition(!CreationWaits.isWaiting(thread), "a thread is recorded as waiting while it resolves")
            for index in 0..<depth {
                // Storing scopes run their factory holding the creation, so its creator is this thread.
                let registration = path[index].takeUnretainedValue()
                precondition(
                    registration.storage == nil || registration.creator.load(ordering: .relaxed) == thread,
                    "\(registration.step) is on this thread's path, but this thread is not creating it")
            }
            if depth > 1 {
                // The innermost may repeat an earlier entry only as a re-entry from a completion below its latest run.
                let innermost = path[depth - 1]
                let registration = innermost.takeUnretainedValue()
                if let index = (0..<depth - 1).last(where: { path[$0].toOpaque() == innermost.toOpaque() }) {
                    precondition(
                        completing > index + 1 && registration.scope.kind != .unique,
                        "\(registration.step) was re-entered with no completion running below its latest run")
                }
            }
            if graphCount > 0 {
                // One instance per registration in a graph: a second would split what the graph shares.
                let newest = graph[graphCount - 1].registration
                precondition(
                    newest.takeUnretainedValue().scope.kind == .graph, "a graph instance of another scope was kept")
                for index in graphBase..<max(graphBase, graphCount - 1) {
                    precondition(
                        graph[index].registration.toOpaque() != newest.toOpaque(),
                        "\(newest.takeUnretainedValue().step) was kept twice in one graph")
                }
            }
        #endif
    }
}

/// The pthread key whose destructor frees a thread's ``ResolutionState`` when the thread exits.
private let stateKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        ResolutionState.destroy(raw)
    }
    return key
}()
