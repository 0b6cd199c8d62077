/// A service resolved anew on every call: resolve `Provider<T>` wherever `T` is registered.
///
/// Inject it where a service needs fresh instances of another, such as one
/// per job, or needs to resolve one only now and then:
///
/// ```swift
/// final class Scheduler {
///     let jobs: Provider<Job>
///     init(jobs: Provider<Job>) { self.jobs = jobs }
///     func run() throws { try jobs.get().start() }
/// }
/// ```
///
/// Each ``get()`` is a resolve of `T` from the container, in `T`'s scope: a
/// ``Scope/unique`` registration gives a new instance every time, a
/// ``Scope/singleton`` the same one. A name and arguments given when resolving
/// the `Provider` are passed on to every call, and the resolve fails at once
/// with ``ResolutionError/Code/notRegistered`` if `T` is not registered for
/// them. The provider does not keep its container alive.
///
/// Unlike a ``Lazy``, a `Provider` made inside a resolution does not remember
/// that resolution's graph: each ``get()`` is a resolution of its own, so a
/// ``Scope/graph`` service is built anew on every call, as Swinject's
/// `Provider` does. A call made while a factory runs on the same thread, such
/// as from an `initCompleted`, is part of that factory's resolution, like any
/// resolve made there, and so returns that resolution's graph instance.
///
/// Resolving a `Provider` and calling ``get()`` once costs less than two
/// resolves of `T`; a kept one's ``get()`` costs about one.
public struct Provider<Service> {
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

    init(
        container: Container, name: String?, argumentTypes: [Any.Type],
        withArguments: ((Container) throws(ResolutionError) -> Service)?
    ) {
        self.link = container.link
        self.name = name
        self.argumentTypes = argumentTypes
        self.withArguments = withArguments
    }

    /// Resolves the service now.
    ///
    /// - Returns: The service, from its registration's scope.
    /// - Throws: ``ResolutionError`` if it cannot be resolved, or
    ///   ``ResolutionError/Code/containerReleased`` if its container is gone.
    @inlinable
    public func get() throws(ResolutionError) -> Service {
        guard let container = link.container else { throw released() }
        if let withArguments {
            return try withArguments(container)
        }
        return try container.resolve(Service.self, name: name)
    }

    /// The error for a resolve after the container is gone, naming the service.
    @usableFromInline
    func released() -> ResolutionError {
        .containerReleased(ResolutionStep(serviceType: Service.self, name: name, argumentTypes: argumentTypes))
    }

    /// Resolves the service now; stops the program if it cannot be resolved.
    ///
    /// > Warning: Use ``get()`` to handle a failure instead of stopping.
    public var instance: Service {
        do {
            return try get()
        } catch {
            injectionFailed("Provider<\(Service.self)>", error)
        }
    }
}

extension Provider: ResolvesLater {}
