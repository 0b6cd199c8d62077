import Synchronization

/// A service resolved once, on first use: resolve `Lazy<T>` wherever `T` is registered.
///
/// Inject it to put off building an expensive service until it is needed, or
/// to break a cycle: neither side needs the other while it is being built.
///
/// ```swift
/// final class Report {
///     let exporter: Lazy<Exporter>
///     init(exporter: Lazy<Exporter>) { self.exporter = exporter }
///     func export() throws { try exporter.get().write(self) }
/// }
/// container.autoregister(Report.init)
/// let report = try container.resolve(Report.self)  // Exporter not built yet
/// ```
///
/// Resolving `Lazy<T>` with a name or arguments passes them on:
/// `try container.resolve(Lazy<Wallet>.self, name: "savings", arguments: "ada")`
/// makes a `Lazy` that resolves `Wallet` under that name with `"ada"`. The
/// resolve fails at once with ``ResolutionError/Code/notRegistered`` if `T`
/// is not registered for them. A registration of `Lazy<T>` itself, if any,
/// wins.
///
/// ## Which instance it returns
///
/// The first successful ``get()`` keeps its value, and every later call, and
/// every copy of the reference, returns that one; a failed one is tried again
/// on the next call. What the first call resolves depends on where the `Lazy`
/// was made, and on `T`'s scope:
///
/// - A `Lazy` made inside a resolution, as when a factory or `autoregister`
///   injects it, remembers that resolution's graph, as Swinject's does. For a
///   ``Scope/graph`` service, ``get()`` returns the instance that graph made,
///   the one every other service of that resolution received, for as long as
///   something holds it: read inside the resolution (in an `initCompleted`,
///   say), or after it. Once that instance is gone, or if the graph never made
///   one, it builds a new one in the same graph: its graph-scope dependencies
///   are those of the graph that are still alive, and another `Lazy` of the
///   same graph then returns the new one while it lives. A value type is not
///   remembered past the end of its resolution, so read afterwards it is built anew.
/// - A `Lazy` resolved at the top level, as with `container.resolve(Lazy<T>.self)`,
///   belongs to no graph: ``get()`` is a resolution of its own, like
///   `container.resolve(T.self)`.
/// - In the other scopes the graph plays no part: ``Scope/unique`` gives a new
///   instance, ``Scope/singleton`` the container's one, ``Scope/cached`` and
///   ``Scope/custom(_:)`` the instance the scope holds at the first ``get()``,
///   and ``Scope/shared`` the live instance if there is one, or a new one.
///
/// A ``Provider`` made inside a resolution does not remember its graph: each
/// of its calls is a resolution of its own, so that it gives a new graph-scope
/// instance each time, as its name promises.
///
/// The `Lazy` does not keep its container alive, so neither does a service
/// that keeps one; it holds its graph's instances weakly, so it keeps none
/// of them alive either. It is not `Sendable`: it keeps the arguments it passes
/// on, which need not be. Should two threads that share one race to its first
/// ``get()``, both resolve, and both receive the value the first of them kept.
public final class Lazy<Service> {
    /// The container, reached without keeping it alive.
    @usableFromInline
    let link: ContainerLink
    @usableFromInline
    let name: String?
    /// The resolve with the arguments given, which it keeps; nil when there are none, the common case.
    @usableFromInline
    let withArguments: ((Container) throws(ResolutionError) -> Service)?
    /// The arguments' types, to name the service once its container is gone.
    let argumentTypes: [Any.Type]
    /// The graph of the resolution this was made in; nil when made at the top level.
    @usableFromInline
    let graph: ObjectGraph?
    /// 0, then 1 while one thread writes the service, then 2 once it is kept for good.
    @usableFromInline
    let state = Atomic<Int>(0)
    // NB: the kept service lives in raw words, not in a `Service?`: the
    // deinit of an unspecialized generic class looks up the metadata of
    // every generic field type, and `Optional<Service>`'s costs more than
    // the rest of the deinit. A service too large for the words is kept on
    // the heap and the words hold its address. Written once, by the thread
    // that moves `state` from 0 to 1, and read only after an acquiring load
    // of `state` sees 2; unchecked, so that a read costs no dynamic
    // exclusivity check.
    @exclusivity(unchecked)
    @usableFromInline
    var slot = LazySlot()

    required init(
        container: Container, name: String?, argumentTypes: [Any.Type],
        withArguments: ((Container) throws(ResolutionError) -> Service)?
    ) {
        self.link = container.link
        self.name = name
        self.argumentTypes = argumentTypes
        self.withArguments = withArguments
        let resolution = ResolutionState.current
        graph = resolution.pointee.depth > 0 ? resolution.pointee.currentObjectGraph() : nil
    }

    deinit {
        if state.load(ordering: .acquiring) == 2 {
            let value = valueAddress
            // NB: `move()`, which the optimizer inlines here, where `deinitialize(count:)` would
            // be a call that looks up `UnsafeMutablePointer<Service>`'s metadata.
            _ = value.assumingMemoryBound(to: Service.self).move()
            if !Self.keepsInline {
                value.deallocate()
            }
        }
    }

    /// Whether the service fits in ``slot`` itself.
    @inlinable
    static var keepsInline: Bool {
        MemoryLayout<Service>.size <= MemoryLayout<LazySlot>.size
            && MemoryLayout<Service>.alignment <= MemoryLayout<LazySlot>.alignment
    }

    /// Where the kept service is, once `state` is 2.
    @inlinable
    var valueAddress: UnsafeMutableRawPointer {
        let words = slot.address()
        return Self.keepsInline ? words : words.load(as: UnsafeMutableRawPointer.self)
    }

    /// The service, resolved on the first call and kept.
    ///
    /// See "Which instance it returns" above for what the first call resolves.
    ///
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` if it cannot be resolved, or
    ///   ``ResolutionError/Code/containerReleased`` if its container is gone.
    @inlinable
    public func get() throws(ResolutionError) -> Service {
        if state.load(ordering: .acquiring) == 2 {
            return valueAddress.assumingMemoryBound(to: Service.self).pointee
        }
        return try resolveAndKeep()
    }

    /// Resolves the service and keeps it, unless another thread kept one first; then returns that one.
    @inlinable
    func resolveAndKeep() throws(ResolutionError) -> Service {
        // NB: resolved without holding anything, so that the factory may use this
        // Lazy's container freely; should a factory reach this very Lazy again,
        // the first value kept is the one every call returns.
        let resolved: Service
        if let graph {
            resolved = try resolve(inGraph: graph)
        } else {
            guard let container = link.container else { throw released() }
            resolved = try resolve(from: container)
        }
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            keep(resolved)
            state.store(2, ordering: .releasing)
            return resolved
        }
        // Another thread is storing its value, for a moment: return that one.
        while state.load(ordering: .acquiring) != 2 {}
        return valueAddress.assumingMemoryBound(to: Service.self).pointee
    }

    /// Copies `service` into ``slot``, or onto the heap when it does not fit; only while `state` is 1.
    @inlinable
    func keep(_ service: Service) {
        let words = slot.address()
        if Self.keepsInline {
            words.initializeMemory(as: Service.self, to: service)
        } else {
            let heap = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
            heap.initializeMemory(as: Service.self, to: service)
            words.storeBytes(of: heap, as: UnsafeMutableRawPointer.self)
        }
    }

    /// Resolves the service now, from `container`.
    @inlinable
    @inline(__always)
    func resolve(from container: Container) throws(ResolutionError) -> Service {
        if let withArguments {
            return try withArguments(container)
        }
        return try container.resolve(Service.self, name: name)
    }

    /// Resolves the service in the graph this `Lazy` was made in.
    @usableFromInline
    func resolve(inGraph graph: ObjectGraph) throws(ResolutionError) -> Service {
        guard let container = link.container else { throw released() }
        let resolution = ResolutionState.current
        // Read while that resolution runs on this thread: it is the current graph.
        if resolution.pointee.depth > 0,
            resolution.pointee.objectGraph?.toOpaque() == Unmanaged.passUnretained(graph).toOpaque()
        {
            return try resolve(from: container)
        }
        let frame = ResolutionState.enterGraph(resolution, graph)
        defer { ResolutionState.leaveGraph(resolution, frame) }
        return try resolve(from: container)
    }

    /// The error for a resolve after the container is gone, naming the service.
    @usableFromInline
    func released() -> ResolutionError {
        .containerReleased(ResolutionStep(serviceType: Service.self, name: name, argumentTypes: argumentTypes))
    }

    /// The service, resolved on first use; stops the program if it cannot be resolved.
    ///
    /// > Warning: Use ``get()`` to handle a failure instead of stopping.
    public var instance: Service {
        do {
            return try get()
        } catch {
            injectionFailed("Lazy<\(Service.self)>", error)
        }
    }
}

extension Lazy: ResolvesLater {}
