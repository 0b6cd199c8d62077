/// A dependency-injection container: registrations in, resolved services out.
///
/// Register a factory for each service, then resolve services by type, name
/// and argument types. A `Container` is `Sendable`: register and resolve from
/// any thread or task at once. No lock is held while a factory runs, so
/// factories may resolve other services and may be slow without blocking
/// other resolutions.
///
/// ```swift
/// let container = Container()
/// container.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
/// container.register(PriceFetcher.self) { r in
///     BitcoinPriceFetcher(networking: try r.resolve(Networking.self))
/// }
/// let fetcher = try container.resolve(PriceFetcher.self)
/// ```
///
/// ## Parent and child containers
///
/// A child made with ``init(parent:defaultScope:)`` sees its parent's
/// registrations and may override them; the parent never sees the child's.
/// Instances of the storing scopes (``Scope/singleton``, ``Scope/cached``,
/// ``Scope/shared``) belong to the container that registered them, so a
/// parent's singleton resolved through a child is the parent's instance. See
/// ``Scope`` for how each scope behaves across containers.
///
/// ## The current container
///
/// ``current`` is a task-local container that the property wrappers, such as
/// ``Injected``, resolve from. It is ``main`` unless a task binds another with
/// `Container.$current.withValue(_:operation:)`, which is how each test gets
/// its own container (see the `PatchbayTesting` module).
public final class Container: Resolver, Sendable {
    /// The container whose registrations this one falls back to, if any.
    public let parent: Container?

    /// The scope of registrations made without an explicit scope.
    public let defaultScope: Scope

    /// How deep resolution may nest before it fails with ``ResolutionError/Code/depthLimitExceeded``.
    ///
    /// Cycles are found long before this, by the resolution path; the bound
    /// only stops a chain that never repeats a registration, such as a factory
    /// that registers into a new container each time it runs.
    public static var maximumDepth: Int { 100 }

    /// The process-wide container, used when no task has bound ``current``.
    public static let main = Container()

    /// The container that property wrappers resolve from in the current task.
    ///
    /// Child tasks inherit it; detached tasks and other threads see ``main``.
    /// Bind another for a scope with `Container.$current.withValue(_:operation:)`.
    @TaskLocal public static var current: Container = .main

    let registry = Registry()
    /// The parent, unretained, for walking the chain without reference counting.
    let parentReference: Unmanaged<Container>?
    /// Set only on the throwaway copies that ``verify()`` builds.
    let recorder: GraphRecorder?

    /// Creates an empty container.
    ///
    /// - Parameters:
    ///   - parent: A container to fall back to for services this one does not register.
    ///   - defaultScope: The scope of registrations made without one; by default the
    ///     parent's, or ``Scope/graph`` for a container without a parent.
    public init(parent: Container? = nil, defaultScope: Scope? = nil) {
        self.parent = parent
        self.parentReference = parent.map { Unmanaged.passUnretained($0) }
        self.defaultScope = defaultScope ?? parent?.defaultScope ?? .graph
        self.recorder = nil
    }

    /// Creates a container from assemblies, in order.
    ///
    /// Each assembly's ``Assembly/assemble(container:)`` runs first, in order,
    /// then each one's ``Assembly/loaded(resolver:)``.
    ///
    /// - Parameters:
    ///   - parent: A container to fall back to for services this one does not register.
    ///   - defaultScope: The scope of registrations made without one.
    ///   - assemblies: The groups of registrations to apply.
    public convenience init(
        parent: Container? = nil, defaultScope: Scope? = nil, assemblies: [any Assembly]
    ) {
        self.init(parent: parent, defaultScope: defaultScope)
        apply(assemblies)
    }

    /// A copy of `original`'s own registrations, with fresh instance storage, that records what it resolves.
    init(copying original: Container, parent: Container?, recorder: GraphRecorder) {
        self.parent = parent
        self.parentReference = parent.map { Unmanaged.passUnretained($0) }
        self.defaultScope = original.defaultScope
        self.recorder = recorder
        for registration in original.registry.current {
            registry.publish(registration.with())
        }
    }

    /// Applies assemblies to this container, in order.
    ///
    /// - Parameter assemblies: The groups of registrations to apply; each one's
    ///   ``Assembly/loaded(resolver:)`` runs after all have assembled.
    public func apply(_ assemblies: [any Assembly]) {
        for assembly in assemblies {
            assembly.assemble(container: self)
        }
        for assembly in assemblies {
            assembly.loaded(resolver: self)
        }
    }

    /// Drops the instances that registrations of `scope` in this container keep.
    ///
    /// After `reset(.cached)` the next resolve of each ``Scope/cached``
    /// registration makes a new instance. `reset(.shared)` forgets the weakly
    /// held instances even while others still hold them. Singletons live as
    /// long as their container, so `reset(.singleton)` does nothing: make a new
    /// container, or a child, to start afresh. Registrations inherited from a
    /// parent are not affected.
    ///
    /// - Parameter scope: The scope whose instances to drop.
    /// - Complexity: O(*n*), where *n* is the number of registrations in this container.
    public func reset(_ scope: Scope) {
        guard scope == .cached || scope == .shared else { return }
        for registration in registry.current where registration.scope == scope && !registration.isForwarder {
            if let value = registration.takeHeldInstance() {
                registration.witness.destroy(value)
                value.deallocate()
            }
        }
    }
}
