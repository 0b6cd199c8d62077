import Synchronization

/// One registered factory, or one forwarded type that points at another key.
///
/// Everything but the instance storage is immutable once the registration is
/// published in a ``Registry``; modifiers such as ``RegistrationOptions/scope(_:)``
/// publish a changed copy instead of mutating.
///
/// Instance storage, for the scopes that keep one:
/// - `state` is `empty`, `pending` (built, visible only to the creating thread
///   while `initCompleted` runs) or `ready` (a singleton anyone may copy).
/// - `creationLock` is held by the one thread running the factory; racing
///   threads wait on it, and on nothing else.
/// - `held` keeps a cached value or a weak reference between resolves; a
///   custom scope keeps its instance in the ``CustomScope``, by this
///   registration's identity, until the scope is reset or this registration goes.
// @unchecked Sendable: the immutable fields are written before publication
// (a release store in the registry) and only read after; `storage` is written
// only under `creationLock` and read by other threads only after an acquiring
// load of `state` sees `ready`; `held` is a Mutex.
final class Registration: @unchecked Sendable {
    typealias Factory = @Sendable (any Resolver, UnsafeRawPointer, UnsafeMutableRawPointer) throws -> Void
    typealias Completion = @Sendable (any Resolver, UnsafeRawPointer) throws -> Void
    typealias Conversion = @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer) -> Bool

    static let empty = 0
    static let pending = 1
    static let ready = 2

    /// What a cached or shared registration keeps between resolves.
    // @unchecked Sendable: only ever accessed inside the `held` Mutex. The
    // instance itself is the user's service, shared as documented on `register`.
    struct Held: @unchecked Sendable {
        var cached: UnsafeMutableRawPointer?
        weak var object: AnyObject?
    }

    let key: RegistrationKey
    let scope: Scope
    let witness: ValueWitness
    let argumentTypes: [Any.Type]
    /// The types resolvable through this registration by `implements`, for introspection.
    let forwardedTypes: [Any.Type]
    /// Builds the value from the resolver and the argument tuple; nil for a forwarder.
    let factory: Factory?
    let completion: Completion?
    /// For a forwarder: the key it stands for, and the conversion to its own type.
    let forwardTarget: RegistrationKey?
    let conversion: Conversion?

    let state = Atomic<Int>(Registration.empty)
    /// The identity of the thread running the factory, or 0.
    let creator = Atomic<UInt>(0)
    let creationLock = Mutex<Void>(())
    /// Room for one value, for the scopes that keep an instance.
    let storage: UnsafeMutableRawPointer?
    let held = Mutex<Held>(Held())

    init(
        key: RegistrationKey, scope: Scope, witness: ValueWitness, argumentTypes: [Any.Type],
        forwardedTypes: [Any.Type], factory: Factory?, completion: Completion?,
        forwardTarget: RegistrationKey? = nil, conversion: Conversion? = nil
    ) {
        self.key = key
        self.scope = scope
        self.witness = witness
        self.argumentTypes = argumentTypes
        self.forwardedTypes = forwardedTypes
        self.factory = factory
        self.completion = completion
        self.forwardTarget = forwardTarget
        self.conversion = conversion
        self.storage = factory != nil && scope.storesInstance ? witness.allocate() : nil
    }

    deinit {
        if let storage {
            if state.load(ordering: .acquiring) != Registration.empty {
                witness.destroy(storage)
            }
            storage.deallocate()
        }
        if let cached = takeHeldInstance() {
            witness.destroy(cached)
            cached.deallocate()
        }
        scope.custom?.discard(ObjectIdentifier(self))
    }

    var isForwarder: Bool { forwardTarget != nil }

    /// A copy with other options and fresh instance storage.
    func with(
        scope: Scope? = nil, forwardedTypes: [Any.Type]? = nil, completion: Completion?? = nil
    ) -> Registration {
        Registration(
            key: key, scope: scope ?? self.scope, witness: witness, argumentTypes: argumentTypes,
            forwardedTypes: forwardedTypes ?? self.forwardedTypes, factory: factory,
            completion: completion ?? self.completion, forwardTarget: forwardTarget,
            conversion: conversion)
    }

    /// This registration as one step of a resolution path.
    var step: ResolutionStep {
        ResolutionStep(serviceType: witness.type, name: key.name, argumentTypes: argumentTypes)
    }

    /// Drops a cached or weakly held instance; the caller destroys the returned value.
    func takeHeldInstance() -> UnsafeMutableRawPointer? {
        let previous = held.withLock { held in
            let previous = held
            held = Held()
            return previous
        }
        return previous.cached
    }

    /// Keeps a cached value's heap copy.
    func holdCached(_ value: UnsafeMutableRawPointer) {
        let replacement = Held(cached: value, object: nil)
        held.withLock { $0 = replacement }
    }

    /// Keeps a weak reference to a shared instance.
    func holdWeakly(_ object: AnyObject) {
        let replacement = Held(cached: nil, object: object)
        held.withLock { $0 = replacement }
    }

    /// A copy of what is held now.
    var currentlyHeld: Held {
        held.withLock { $0 }
    }
}

extension Registration {
    /// The storage of a singleton that is ready to copy, or nil.
    @inline(__always)
    var readyStorage: UnsafeMutableRawPointer? {
        state.load(ordering: .acquiring) == Registration.ready ? storage : nil
    }
}
