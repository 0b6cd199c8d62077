import Synchronization

/// A dependency-injection container: registrations in, resolved services out.
///
/// Register a factory for each service, then resolve services by type, name
/// and argument types. A `Container` is `Sendable`: register and resolve from
/// any thread or task at once. Resolving takes no container-wide lock, and
/// factories may resolve other services.
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
/// A child made with ``init(parent:defaultScope:creationWaitLimit:)`` sees its parent's
/// registrations and may override them; the parent never sees the child's.
/// Instances of the storing scopes (``Scope/singleton``, ``Scope/cached``,
/// ``Scope/shared`` and ``Scope/custom(_:)``) belong to the container that registered them, so a
/// parent's singleton resolved through a child is the parent's instance. See
/// ``Scope`` for how each scope behaves across containers.
///
/// ## Several containers searched at once
///
/// Resolver's `add(child:)` makes one container search others in turn.
/// Patchbay searches one chain instead: a container, then its parent, then
/// the parent's parent. That suffices, and keeps ownership plain:
///
/// - To combine registrations from several sources, such as plugins, apply
///   each source's ``Assembly`` to one container, or give each source a child
///   of the container it builds on.
/// - To let a layer override another, make it the child: a lookup stops at the
///   nearest registration, so overrides are visible and ordered.
/// - A storing scope's instance belongs to the container that registered it.
///   With one chain, every resolve of a key reaches the same registration, and
///   so the same singleton; with several searched siblings, which one answers
///   would depend on where the resolve began.
///
/// ## The current container
///
/// ``current`` is a task-local container that the property wrappers, such as
/// ``Injected``, resolve from. It is ``main`` unless a task binds another with
/// `Container.$current.withValue(_:operation:)`, which is how each test gets
/// its own container (see the `PatchbayTesting` module).
///
/// ## What is locked while a factory runs
///
/// Nothing container-wide: other threads register and resolve other services
/// while a factory runs, however slow it is. But a registration in a storing
/// scope (``Scope/singleton``, ``Scope/cached``, ``Scope/shared``, ``Scope/custom(_:)``) holds its
/// own creation lock from the moment its
/// factory starts until its last `initCompleted` returns; that is how it is
/// made exactly once when threads race. Another thread that asks for the same
/// registration meanwhile waits for that lock. ``Scope/unique`` and
/// ``Scope/graph`` hold no lock at all.
///
/// So a storing factory must not wait for another thread that resolves the
/// same registration: that thread waits for the factory, and the factory for
/// the thread. A wait the container can see, where each of two threads is
/// creating what the other asks for, fails at once with a
/// ``ResolutionError/Code/circularDependency`` "found across threads". A wait
/// it cannot see, such as a semaphore or a queue inside the factory, hangs;
/// give the container a ``creationWaitLimit`` to turn it into a
/// ``ResolutionError/Code/waitLimitExceeded`` that names the service and its path.
public final class Container: Resolver, Sendable {
    /// The container whose registrations this one falls back to, if any.
    public let parent: Container?

    /// The scope of registrations made without an explicit scope.
    public let defaultScope: Scope

    /// How long a resolve waits for another thread that is creating the same
    /// storing-scope instance, before it throws ``ResolutionError/Code/waitLimitExceeded``; nil waits for good.
    ///
    /// Off by default: a factory that is merely slow should not fail. Set it
    /// where a hang would be worse than an error, or while looking for one; the
    /// error names the service, the resolution path and the other thread's
    /// creation in progress. It applies to resolves made through this container,
    /// including those its factories make.
    public let creationWaitLimit: Duration?

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
    /// Makers of the types resolved on demand from this container, such as `Lazy<T>`, one per key, made on first use.
    ///
    /// Searched only after this container and its parents have no registration
    /// for a key, so a registration made later, here or in a parent, still wins.
    let onDemand = Registry()
    /// What ``All`` lists for each service type, kept until a registration changes in this chain.
    let allRegistrations = Mutex<[ObjectIdentifier: RegistrationList]>([:])
    /// The parent, unretained, for walking the chain without reference counting.
    let parentReference: Unmanaged<Container>?
    /// Set only on the throwaway copies that ``verify()`` builds.
    @usableFromInline
    let recorder: GraphRecorder?
    /// How a ``Lazy`` or ``Provider`` reaches this container without keeping it alive; closed in `deinit`.
    let link = ContainerLink()

    /// Creates an empty container.
    ///
    /// - Parameters:
    ///   - parent: A container to fall back to for services this one does not register.
    ///   - defaultScope: The scope of registrations made without one; by default the
    ///     parent's, or ``Scope/graph`` for a container without a parent.
    ///   - creationWaitLimit: How long a resolve waits for another thread's
    ///     creation of the same instance; by default the parent's, or no limit.
    public init(parent: Container? = nil, defaultScope: Scope? = nil, creationWaitLimit: Duration? = nil) {
        self.parent = parent
        self.parentReference = parent.map { Unmanaged.passUnretained($0) }
        self.defaultScope = defaultScope ?? parent?.defaultScope ?? .graph
        self.creationWaitLimit = creationWaitLimit ?? parent?.creationWaitLimit
        self.recorder = nil
        link.attach(self)
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
        self.creationWaitLimit = original.creationWaitLimit
        self.recorder = recorder
        for registration in original.registry.current {
            registry.publish(registration.with())
        }
        link.attach(self)
    }

    deinit {
        link.close()
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

    /// Drops the instances that registrations of `scope` keep, in this container alone or in its parents too.
    ///
    /// After `reset(.cached, includingParents: false)` the next resolve of each
    /// ``Scope/cached`` registration of this container makes a new instance.
    /// `reset(.shared, …)` forgets the weakly held instances even while others
    /// still hold them. `reset(.custom(request), …)` drops the instances the
    /// ``CustomScope`` keeps for the registrations it reaches; to drop every
    /// instance the scope keeps, in every container, call the scope's own
    /// ``CustomScope/reset()``. `reset(.singleton, …)` makes the next resolve
    /// of each singleton build a new one, as Swinject's
    /// `resetObjectScope(.container)` does; since another thread may still be
    /// copying the old instance out, the container keeps it until the container
    /// itself goes.
    ///
    /// The reach is part of the call, because the two libraries Patchbay
    /// ports from differ: Swinject's `resetObjectScope(_:)` on a child resets
    /// its parents' instances too (`includingParents: true`); a child's reset
    /// that leaves the instances its parents share with other children alone
    /// is `includingParents: false`.
    ///
    /// ```swift
    /// let child = Container(parent: app)
    /// child.reset(.custom(.request), includingParents: false)  // the child's own request services
    /// child.reset(.custom(.request), includingParents: true)   // and the app's, as Swinject does
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The scope whose instances to drop.
    ///   - includingParents: Whether to drop the instances of the parents'
    ///     registrations too, up to the root; false drops only this container's.
    /// - Complexity: O(*n*), where *n* is the number of registrations in the containers reset.
    public func reset(_ scope: Scope, includingParents: Bool) {
        var container: Container? = self
        while let current = container {
            current.resetOwn(scope)
            container = includingParents ? current.parent : nil
        }
    }

    /// Drops the instances of this container's own registrations of `scope`.
    private func resetOwn(_ scope: Scope) {
        if scope.kind == .singleton {
            // NB: a fresh copy of each registration, with empty storage: a
            // singleton is read without a lock, so its storage is never emptied.
            for registration in registry.current where registration.scope == scope && !registration.isForwarder {
                registry.publish(registration.with())
            }
            return
        }
        guard scope.kind == .cached || scope.kind == .shared || scope.kind == .custom else { return }
        for registration in registry.current where registration.scope == scope && !registration.isForwarder {
            if let custom = scope.custom {
                custom.discard(ObjectIdentifier(registration))
            } else if let value = registration.takeHeldInstance() {
                registration.witness.destroy(value)
                value.deallocate()
            }
        }
    }
}
