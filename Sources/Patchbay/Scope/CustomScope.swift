import Synchronization

/// A scope with storage of its own, such as one per request or per session,
/// whose instances live until you call ``reset()``.
///
/// Make one for each lifetime your app has, register services in it with
/// ``Scope/custom(_:)``, and reset it when that lifetime ends. Until then,
/// every resolve of such a registration returns the same instance; after
/// it, the next resolve makes a new one.
///
/// ```swift
/// extension CustomScope {
///     static let request = CustomScope(name: "request")
/// }
///
/// container.register(RequestContext.self, scope: .custom(.request)) { _ in RequestContext() }
///
/// func handle(_ request: HTTPRequest) throws {
///     defer { CustomScope.request.reset() }
///     let context = try container.resolve(RequestContext.self)  // one per request
///     …
/// }
/// ```
///
/// A custom scope behaves like ``Scope/cached`` in everything but where its
/// instances are kept:
///
/// - An instance is made exactly once even when threads race: the factory
///   runs under its registration's creation lock, and other threads that ask
///   meanwhile wait for it (see "What is locked while a factory runs" in
///   ``Container``).
/// - An instance belongs to the registration that made it, and so to the
///   container that registered it: resolving through a child returns the
///   parent's instance, and a child that registers the same key in the same
///   scope gets an instance of its own. ``reset()`` drops them all;
///   ``Container/reset(_:includingParents:)`` drops only those of one container's
///   registrations, or of it and its parents.
/// - An instance still being created when ``reset()`` runs is returned to
///   the resolve that made it, but not kept: the next resolve makes a new one.
///
/// Registrations in one custom scope share one lock for reading and keeping
/// their instances, so a custom scope costs a little more per resolve than
/// ``Scope/cached``. Its name shows wherever a scope is printed: in
/// ``RegistrationInfo``, in the graph from ``Container/verify()`` and in
/// errors, as `custom(request)`.
///
/// > Note: One scope is one set of instances. To keep a session's services
/// > apart from another session's at the same time, give each session a
/// > container of its own (a child of the app's) instead, and let the
/// > services be ``Scope/singleton`` in it.
public final class CustomScope: Sendable, CustomStringConvertible {
    /// An instance kept for one registration.
    // @unchecked Sendable: `value` is owned by the scope from `keep` until it
    // is taken out of `state` under its Mutex, and then by the one caller
    // that destroys it.
    private struct Kept: @unchecked Sendable {
        let value: UnsafeMutableRawPointer
        let witness: ValueWitness
        let key: RegistrationKey
    }

    private struct State: Sendable {
        /// The instance of each registration, by the registration's identity.
        var kept: [ObjectIdentifier: Kept] = [:]
        /// Counts resets, so that a creation that began before one is not kept after it.
        var generation: UInt64 = 0
    }

    /// The name that identifies the scope in messages, such as `request`.
    public let name: String

    private let state = Mutex<State>(State())

    /// Creates a scope with empty storage of its own.
    ///
    /// Each call makes a separate scope, even with the same name: keep it in a
    /// `static let`, or wherever the lifetime it stands for is managed.
    ///
    /// ```swift
    /// let session = CustomScope(name: "session")
    /// container.register(UserSession.self, scope: .custom(session)) { _ in UserSession() }
    /// ```
    ///
    /// - Parameter name: A name for messages and graphs, such as `request`.
    public init(name: String) {
        self.name = name
    }

    deinit {
        // NB: no registration can outlive the scope: each one holds it through its `Scope`.
        for kept in state.withLock({ $0.kept.values }) {
            kept.witness.destroy(kept.value)
            kept.value.deallocate()
        }
    }

    /// The scope as it prints in messages and graphs: `custom(name)`.
    public var description: String {
        "custom(\(name))"
    }

    /// Drops every instance this scope keeps, in every container; the next resolve of each makes a new one.
    ///
    /// ```swift
    /// let first = try container.resolve(RequestContext.self)
    /// CustomScope.request.reset()
    /// let second = try container.resolve(RequestContext.self)  // a new instance
    /// ```
    ///
    /// The scope releases its instances before `reset()` returns; an instance
    /// is deinitialized then unless something else still holds it.
    ///
    /// - Complexity: O(*n*), where *n* is the number of instances kept.
    public func reset() {
        let dropped = state.withLock { state in
            state.generation &+= 1
            let dropped = state.kept
            state.kept = [:]
            return dropped
        }
        // NB: released outside the lock: a deinit may resolve, or reset again.
        release(dropped.values)
    }

    /// Drops the instances this scope keeps for one service type and name, with any argument types, in every container.
    ///
    /// ```swift
    /// CustomScope.session.reset(UserProfile.self)  // reload the profile, keep the rest of the session
    /// ```
    ///
    /// An instance of that service being created while this runs is still kept.
    ///
    /// - Parameters:
    ///   - serviceType: The registered service type.
    ///   - name: The registration name, or nil for the unnamed registration.
    /// - Complexity: O(*n*), where *n* is the number of instances kept.
    public func reset<Service>(_ serviceType: Service.Type, name: String? = nil) {
        let service = ObjectIdentifier(serviceType)
        let dropped = state.withLock { state in
            let dropped = state.kept.filter { $0.value.key.service == service && $0.value.key.name == name }
            for id in dropped.keys {
                state.kept[id] = nil
            }
            return dropped
        }
        release(dropped.values)
    }

    // MARK: - Storage for the engine

    /// The number of resets so far; pass it to ``keep(_:for:ifGeneration:)``.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// The number of instances kept now.
    var count: Int {
        state.withLock { $0.kept.count }
    }

    /// Copies the instance kept for `registration` into `out`; false if there is none.
    func copy(for registration: Registration, into out: UnsafeMutableRawPointer) -> Bool {
        let id = ObjectIdentifier(registration)
        // NB: copied under the lock, so that a concurrent reset cannot free it mid-copy.
        return state.withLock { state in
            guard let kept = state.kept[id] else { return false }
            kept.witness.copy(kept.value, out)
            return true
        }
    }

    /// Keeps `value`, a heap copy of `registration`'s new instance, unless the
    /// scope was reset since `generation`; then the caller destroys it.
    ///
    /// - Returns: Whether the scope took ownership of `value`.
    func keep(_ value: UnsafeMutableRawPointer, for registration: Registration, ifGeneration generation: UInt64)
        -> Bool
    {
        let kept = Kept(value: value, witness: registration.witness, key: registration.key)
        let id = ObjectIdentifier(registration)
        let (stored, replaced) = state.withLock { state -> (Bool, Kept?) in
            guard state.generation == generation else { return (false, nil) }
            return (true, state.kept.updateValue(kept, forKey: id))
        }
        if let replaced {
            release(CollectionOfOne(replaced))
        }
        return stored
    }

    /// Drops the instance kept for the registration with identity `id`, if any.
    func discard(_ id: ObjectIdentifier) {
        let dropped = state.withLock { $0.kept.removeValue(forKey: id) }
        if let dropped {
            release(CollectionOfOne(dropped))
        }
    }

    private func release(_ dropped: some Sequence<Kept>) {
        for kept in dropped {
            kept.witness.destroy(kept.value)
            kept.value.deallocate()
        }
    }
}
