/// The type-erased resolution engine.
///
/// Values travel through raw memory: every function here initializes `out`
/// with one value of the registration's type, or throws and leaves it
/// uninitialized. `self` is the container the request was made to; `owner`
/// is the container that holds the registration.
extension Container {
    func produce(
        _ registration: Registration, owner: Container, arguments: UnsafeRawPointer,
        into out: UnsafeMutableRawPointer
    ) throws(ResolutionError) {
        if let target = registration.forwardTarget {
            try produceForwarded(registration, target: target, owner: owner, arguments: arguments, into: out)
            return
        }
        switch registration.scope.kind {
        case .unique:
            try run(registration, resolver: self, arguments: arguments, into: out, state: ResolutionState.current)
        case .graph:
            let state = ResolutionState.current
            if let instance = state.pointee.graphInstance(of: registration) {
                registration.witness.copy(instance, out)
                return
            }
            if state.pointee.objectGraph != nil, copyFromObjectGraph(registration, owner: owner, into: out, state: state) {
                return
            }
            try run(
                registration, resolver: self, arguments: arguments, into: out, state: state, keepingInGraphOf: owner)
        case .singleton, .cached, .shared, .custom:
            try produceStored(registration, owner: owner, arguments: arguments, into: out)
        case .onDemand:
            try makeOnDemand(registration, arguments: arguments, into: out)
        }
    }

    /// Copies the live instance a ``Lazy``'s graph recorded for `registration` into `out`, and keeps it in the graph.
    ///
    /// - Returns: false if the graph has none, or it has been released.
    @inline(never)
    private func copyFromObjectGraph(
        _ registration: Registration, owner: Container, into out: UnsafeMutableRawPointer,
        state: UnsafeMutablePointer<ResolutionState>
    ) -> Bool {
        guard let object = state.pointee.objectGraph?.takeUnretainedValue().instance(of: registration),
            registration.witness.fromObject(object, out)
        else { return false }
        // Kept for the rest of this resolve, so that the graph has one instance of it even if others let it go.
        if state.pointee.depth > 0 {
            state.pointee.keepGraphInstance(of: registration, owner: owner, copying: out)
        }
        return true
    }

    /// Makes a value of a type made on demand, such as `Lazy<T>`, with the maker its first resolve cached.
    ///
    /// Not on the resolution path: what the value resolves later, it resolves then.
    @inline(never)
    private func makeOnDemand(
        _ registration: Registration, arguments: UnsafeRawPointer, into out: UnsafeMutableRawPointer
    ) throws(ResolutionError) {
        do {
            try registration.factory?(self, arguments, out)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw .factoryFailed(error, registration.step, path: currentPath)
        }
    }

    /// Runs the factory, and then `initCompleted`, inside the resolution path.
    ///
    /// - Parameter graphOwner: For a graph-scope registration, the container
    ///   that holds it; the value is then kept for the rest of the graph.
    @inline(__always)
    private func run(
        _ registration: Registration, resolver: Container, arguments: UnsafeRawPointer,
        into out: UnsafeMutableRawPointer, state: UnsafeMutablePointer<ResolutionState>,
        keepingInGraphOf graphOwner: Container? = nil
    ) throws(ResolutionError) {
        try state.pointee.push(registration, resolver: resolver)
        defer { ResolutionState.pop(state) }
        let reentries = state.pointee.reentries
        try callFactory(registration, resolver: resolver, arguments: arguments, into: out, state: state)
        if let graphOwner {
            // A completion below re-entered this factory and kept that instance: the graph has one of each.
            if state.pointee.reentries != reentries, let kept = state.pointee.graphInstance(of: registration) {
                preferKept(kept, over: out, witness: registration.witness)
                return
            }
            // A top-level graph instance is needed again only by `initCompleted`, or
            // by a `Lazy` made in the graph: the graph ends as soon as it returns.
            if state.pointee.depth > 1 || registration.completion != nil || state.pointee.objectGraph != nil {
                state.pointee.keepGraphInstance(of: registration, owner: graphOwner, copying: out)
            }
        }
        if registration.completion != nil {
            do {
                try complete(registration, resolver: resolver, value: out, state: state)
            } catch {
                registration.witness.destroy(out)
                throw error
            }
        }
    }

    /// Calls the factory, turning an error of its own into ``ResolutionError/Code/factoryFailed``.
    @inline(__always)
    private func callFactory(
        _ registration: Registration, resolver: Container, arguments: UnsafeRawPointer,
        into out: UnsafeMutableRawPointer, state: UnsafeMutablePointer<ResolutionState>
    ) throws(ResolutionError) {
        // Only forwarders have no factory, and `produceForwarded` takes those.
        assert(registration.factory != nil, "a registration without a factory reached run()")
        do {
            // NB: called through the optional, not bound with `guard let`:
            // binding copies the closure, a retain and a release per call.
            try registration.factory?(resolver, arguments, out)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw .factoryFailed(error, registration.step, path: state.pointee.steps)
        }
    }

    /// Replaces the value at `out` with a copy of `kept`.
    @inline(never)
    private func preferKept(_ kept: UnsafeRawPointer, over out: UnsafeMutableRawPointer, witness: ValueWitness) {
        witness.destroy(out)
        witness.copy(kept, out)
    }

    /// Runs the registration's completions on `value`, with the registration innermost on the path.
    ///
    /// Marks the path as completing, which lets a factory further up be
    /// re-entered (see ``ResolutionState/reenter(_:at:)``), unless the
    /// instance is ``Scope/unique``: it is kept nowhere, so a factory run
    /// again would find nothing new, and make another one.
    @inline(never)
    private func complete(
        _ registration: Registration, resolver: Container, value: UnsafeRawPointer,
        state: UnsafeMutablePointer<ResolutionState>
    ) throws(ResolutionError) {
        guard let completion = registration.completion else { return }
        let outer = state.pointee.completing
        if registration.scope.kind != .unique {
            state.pointee.completing = state.pointee.depth
        }
        state.pointee.checkInvariants()
        defer {
            state.pointee.completing = outer
            state.pointee.checkInvariants()
        }
        do {
            try completion(resolver, value)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw .factoryFailed(error, registration.step, path: state.pointee.steps)
        }
    }

    /// Singleton, cached, shared and custom: the instance lives in the registration
    /// (or, for a custom scope, in the scope's storage under the registration),
    /// and racing threads wait on its creation lock while one of them builds it.
    @inline(never)
    private func produceStored(
        _ registration: Registration, owner: Container, arguments: UnsafeRawPointer,
        into out: UnsafeMutableRawPointer
    ) throws(ResolutionError) {
        let state = ResolutionState.current
        let thread = UInt(bitPattern: state)
        let witness = registration.witness
        guard let storage = registration.storage else { return }
        if registration.creator.load(ordering: .acquiring) == thread {
            // This thread is building it. During `initCompleted` the instance
            // exists and is served; during the factory, asking again is a cycle,
            // unless a completion below may re-enter the factory.
            if registration.state.load(ordering: .acquiring) == Registration.pending {
                witness.copy(storage, out)
                return
            }
            try build(registration, owner: owner, arguments: arguments, into: out, state: state)
            return
        }
        if copyHeld(registration, into: out) {
            return
        }
        guard CreationWaits.willWait(thread, for: registration) else {
            throw .circularDependency(
                registration.step, path: state.pointee.steps + [registration.step], acrossThreads: true)
        }
        let body = { () throws(ResolutionError) -> Void in
            CreationWaits.didWait(thread)
            // Someone else may have built it while this thread waited.
            if let ready = registration.readyStorage {
                witness.copy(ready, out)
                return
            }
            if self.copyHeld(registration, into: out) {
                return
            }
            // A reset of a custom scope from here on means this instance is not kept.
            let generation = registration.scope.custom?.generation ?? 0
            registration.creator.store(thread, ordering: .releasing)
            defer { registration.creator.store(0, ordering: .releasing) }
            // Storing scopes build from the container that registered them.
            try self.build(registration, owner: owner, arguments: arguments, into: out, state: state)
            // Built and completed, the instance is pending: seen by this thread alone until the scope takes it.
            assert(registration.state.load(ordering: .relaxed) == Registration.pending, "a creation ended unbuilt")
            switch registration.scope.kind {
            case .singleton:
                registration.state.store(Registration.ready, ordering: .releasing)
            case .cached:
                let box = witness.allocate()
                witness.copy(storage, box)
                registration.holdCached(box)
                witness.destroy(storage)
                registration.state.store(Registration.empty, ordering: .releasing)
            case .custom:
                self.keepInCustomScope(registration, generation: generation)
            default:
                if let object = witness.object(storage) {
                    registration.holdWeakly(object)
                }
                witness.destroy(storage)
                registration.state.store(Registration.empty, ordering: .releasing)
            }
            assert(
                registration.state.load(ordering: .relaxed) != Registration.pending,
                "\(registration.step) is still pending after its creation ended")
        }
        if let limit = creationWaitLimit {
            try CreationWaits.withCreationLock(
                of: registration, waitingAtMost: limit, thread: thread,
                timedOut: {
                    .waitLimitExceeded(
                        registration.step, scope: registration.scope,
                        path: state.pointee.steps + [registration.step], limit: limit)
                }, body)
        } else {
            try registration.creationLock.withLock { _ throws(ResolutionError) in try body() }
        }
    }

    /// Runs the factory of a storing registration whose creation this thread
    /// holds, keeps the instance pending in its storage, and runs its completions,
    /// with the registration on the path throughout.
    ///
    /// On return, `out` holds the instance and the storage a copy of it, `pending`;
    /// on a throw, both are uninitialized and the state is `empty`.
    private func build(
        _ registration: Registration, owner: Container, arguments: UnsafeRawPointer,
        into out: UnsafeMutableRawPointer, state: UnsafeMutablePointer<ResolutionState>
    ) throws(ResolutionError) {
        guard let storage = registration.storage else { return }
        let witness = registration.witness
        try state.pointee.push(registration, resolver: owner)
        defer { ResolutionState.pop(state) }
        let reentries = state.pointee.reentries
        do {
            try callFactory(registration, resolver: owner, arguments: arguments, into: out, state: state)
        } catch {
            // A re-entered run below may have kept its instance before this one failed.
            discardPending(registration)
            throw error
        }
        if state.pointee.reentries != reentries,
            registration.state.load(ordering: .acquiring) == Registration.pending
        {
            // A completion below re-entered this factory and kept that instance, completed: use it.
            preferKept(storage, over: out, witness: witness)
            return
        }
        witness.copy(out, storage)
        registration.state.store(Registration.pending, ordering: .releasing)
        do {
            try complete(registration, resolver: owner, value: storage, state: state)
        } catch {
            witness.destroy(out)
            discardPending(registration)
            throw error
        }
    }

    /// Moves a custom-scope registration's new instance from its storage into
    /// the scope's, unless the scope was reset since `generation`.
    @inline(never)
    private func keepInCustomScope(_ registration: Registration, generation: UInt64) {
        guard let storage = registration.storage else { return }
        let witness = registration.witness
        let box = witness.allocate()
        witness.copy(storage, box)
        if registration.scope.custom?.keep(box, for: registration, ifGeneration: generation) != true {
            witness.destroy(box)
            box.deallocate()
        }
        witness.destroy(storage)
        registration.state.store(Registration.empty, ordering: .releasing)
    }

    /// Destroys a pending instance, if the storage holds one.
    private func discardPending(_ registration: Registration) {
        guard let storage = registration.storage,
            registration.state.load(ordering: .acquiring) == Registration.pending
        else { return }
        registration.witness.destroy(storage)
        registration.state.store(Registration.empty, ordering: .releasing)
    }

    /// Copies a cached value, a custom scope's instance or a live weakly held instance into `out`.
    private func copyHeld(_ registration: Registration, into out: UnsafeMutableRawPointer) -> Bool {
        switch registration.scope.kind {
        case .cached:
            // NB: copy under the lock, so that a concurrent reset cannot free it mid-copy.
            let copied = registration.held.withLock { held in
                guard let cached = held.cached else { return false }
                registration.witness.copy(cached, out)
                return true
            }
            return copied
        case .shared:
            // NB: take the strong reference under the lock, convert outside it.
            guard let object = registration.currentlyHeld.object else { return false }
            return registration.witness.fromObject(object, out)
        case .custom:
            return registration.scope.custom?.copy(for: registration, into: out) ?? false
        default:
            return false
        }
    }

    /// A forwarded type: resolve the target key in the owner's chain, then convert.
    private func produceForwarded(
        _ forwarder: Registration, target: RegistrationKey, owner: Container, arguments: UnsafeRawPointer,
        into out: UnsafeMutableRawPointer
    ) throws(ResolutionError) {
        guard let found = owner.locate(target), let conversion = forwarder.conversion else {
            throw notRegistered(forwarder.step)
        }
        let registration = found.registration.takeUnretainedValue()
        let witness = registration.witness
        if let ready = registration.readyStorage {
            guard conversion(ready, out) else {
                throw .typeMismatch(forwarder.step, value: witness.type, path: currentPath)
            }
            return
        }
        try withScratch(for: witness) { scratch throws(ResolutionError) in
            try produce(registration, owner: found.owner.takeUnretainedValue(), arguments: arguments, into: scratch)
            defer { witness.destroy(scratch) }
            guard conversion(scratch, out) else {
                throw .typeMismatch(forwarder.step, value: witness.type, path: currentPath)
            }
        }
    }

    /// Temporary storage for one value described by `witness`.
    func withScratch<Result>(
        for witness: ValueWitness, _ body: (UnsafeMutableRawPointer) throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        try withUnsafeTemporaryAllocation(
            byteCount: Swift.max(witness.size, 1), alignment: witness.alignment
        ) { buffer throws(ResolutionError) -> Result in
            // NB: a temporary allocation of at least one byte always has a base address.
            try body(buffer.baseAddress.unsafelyUnwrapped)
        }
    }

    /// The resolution path on this thread, outermost first.
    var currentPath: [ResolutionStep] {
        ResolutionState.current.pointee.steps
    }

    // MARK: - Failures

    /// A "not registered" error for `requested`, listing what is registered for its type.
    @usableFromInline
    @inline(never)
    func notRegistered(_ requested: ResolutionStep) -> ResolutionError {
        // A type made on demand is not missing; `verify()` records the service behind it instead.
        if !(requested.serviceType is any ResolvedOnDemand.Type) {
            recordMissing(requested)
        }
        let service = ObjectIdentifier(requested.serviceType)
        var seen: Set<RegistrationKey> = []
        var registered: [ResolutionStep] = []
        var container: Container? = self
        while let current = container {
            for registration in current.registry.current
            where registration.key.service == service && seen.insert(registration.key).inserted {
                registered.append(registration.step)
            }
            container = current.parent
        }
        registered.sort { $0.description < $1.description }
        return .notRegistered(requested, path: currentPath, registered: registered)
    }

    // MARK: - Recording for verify()

    @inline(never)
    func record(_ found: Located) {
        guard let recorder else { return }
        let registration = found.registration.takeUnretainedValue()
        // A maker of `Lazy<T>` and the like records the service behind it when it runs.
        guard registration.scope.kind != .onDemand else { return }
        let from = ResolutionState.current.pointee.innermost
        if let target = registration.forwardTarget,
            let resolved = found.owner.takeUnretainedValue().locate(target)?.registration.takeUnretainedValue()
        {
            recorder.record(from: from, to: resolved, via: registration.witness.type)
        } else {
            recorder.record(from: from, to: registration, via: nil)
        }
    }

    func recordMissing(_ requested: ResolutionStep) {
        guard let recorder else { return }
        recorder.recordMissing(from: ResolutionState.current.pointee.innermost, requested: requested)
    }
}
