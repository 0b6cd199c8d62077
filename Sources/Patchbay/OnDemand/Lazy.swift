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
/// The first successful ``get()`` keeps its value, and copies of a `Lazy`
/// share it; a failed one is tried again on the next call. The `Lazy` holds
/// its container weakly, so a service that keeps one does not keep its
/// container alive. It is not `Sendable`: it keeps the arguments it passes
/// on, which need not be.
public final class Lazy<Service> {
    private let deferred: DeferredResolve<Service>
    private let value = Mutex<Box?>(nil)

    /// The resolved value, boxed so that `Mutex` can hold a value of any type.
    private final class Box: @unchecked Sendable {
        // @unchecked Sendable: written once, before the Box is published inside `value`'s lock.
        let service: Service
        init(_ service: Service) { self.service = service }
    }

    init(_ deferred: DeferredResolve<Service>) {
        self.deferred = deferred
    }

    /// The service, resolved on the first call and kept.
    ///
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` if it cannot be resolved, or
    ///   ``ResolutionError/Code/containerReleased`` if its container is gone.
    public func get() throws(ResolutionError) -> Service {
        if let box = value.withLock({ $0 }) {
            return box.service
        }
        // NB: resolved outside `value`'s lock, so that the factory may use this
        // Lazy's container freely; should a factory reach this very Lazy again,
        // the first value kept is the one every call returns.
        let resolved = try deferred.resolve()
        let kept = value.withLock { stored -> Box in
            if let stored { return stored }
            let box = Box(resolved)
            stored = box
            return box
        }
        return kept.service
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

/// A weak reference to a container, shared by the values that resolve from it later.
final class WeakContainer: Sendable {
    // NB: `weak let` is Sendable; the container itself is Sendable.
    weak let object: Container?

    init(_ object: Container) {
        self.object = object
    }
}
