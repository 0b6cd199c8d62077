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
/// It lives in memory reached through a raw pointer from a pthread key: no
/// reference counting, no dynamic exclusivity checks, and no allocation after
/// a thread's first resolve.
struct ResolutionState {
    /// An instance made in graph scope during the current top-level resolve.
    struct GraphEntry {
        let registration: Registration
        let value: UnsafeMutableRawPointer
        let isInArena: Bool
    }

    /// Bytes of graph-scope instances kept without a heap allocation per resolve.
    static var arenaSize: Int { 2048 }

    /// How many registrations are being built, outermost first, in `path`.
    var depth = 0
    let path: UnsafeMutablePointer<Unmanaged<Registration>>
    var graph: [GraphEntry] = []
    let arena: UnsafeMutableRawPointer
    var arenaUsed = 0

    init() {
        path = .allocate(capacity: Container.maximumDepth + 1)
        arena = .allocate(byteCount: ResolutionState.arenaSize, alignment: 16)
        graph.reserveCapacity(16)
    }

    /// The calling thread's state, created on its first use.
    @inline(__always)
    static var current: UnsafeMutablePointer<ResolutionState> {
        if let raw = pthread_getspecific(stateKey) {
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
        pthread_setspecific(stateKey, state)
        return state
    }

    fileprivate static func destroy(_ raw: UnsafeMutableRawPointer?) {
        guard let state = raw?.assumingMemoryBound(to: ResolutionState.self) else { return }
        state.pointee.path.deallocate()
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

    /// Enters `registration`'s factory.
    ///
    /// - Throws: ``ResolutionError/Code/circularDependency`` if it is already
    ///   on the path, ``ResolutionError/Code/depthLimitExceeded`` past the limit.
    @inline(__always)
    mutating func push(_ registration: Registration) throws(ResolutionError) {
        let entry = Unmanaged.passUnretained(registration)
        for index in 0..<depth where path[index].toOpaque() == entry.toOpaque() {
            throw .circularDependency(registration.step, path: steps + [registration.step])
        }
        if depth >= Container.maximumDepth {
            throw .depthLimitExceeded(registration.step, path: steps, limit: Container.maximumDepth)
        }
        path[depth] = entry
        depth += 1
    }

    /// Leaves the innermost factory; leaving the outermost ends the graph scope.
    @inline(__always)
    mutating func pop() {
        depth -= 1
        if depth == 0 && !graph.isEmpty {
            endGraph()
        }
    }

    /// The graph-scope instance of `registration` made earlier in this resolve.
    @inline(__always)
    func graphInstance(of registration: Registration) -> UnsafeMutableRawPointer? {
        for entry in graph where entry.registration === registration {
            return entry.value
        }
        return nil
    }

    /// Keeps a copy of `value` for the rest of this top-level resolve.
    mutating func keepGraphInstance(of registration: Registration, copying value: UnsafeRawPointer) {
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
        graph.append(GraphEntry(registration: registration, value: storage, isInArena: isInArena))
    }

    @inline(never)
    private mutating func endGraph() {
        // NB: one at a time, because destroying an instance runs its deinit,
        // which may itself resolve and so use this state.
        while let entry = graph.popLast() {
            entry.registration.witness.destroy(entry.value)
            if !entry.isInArena {
                entry.value.deallocate()
            }
        }
        arenaUsed = 0
    }
}

/// The pthread key under which each thread keeps its ``ResolutionState``.
private let stateKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        ResolutionState.destroy(raw)
    }
    return key
}()
