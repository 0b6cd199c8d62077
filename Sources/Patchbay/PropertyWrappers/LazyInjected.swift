/// A property resolved from a container the first time it is read.
///
/// ```swift
/// final class PriceViewModel {
///     @LazyInjected var fetcher: PriceFetcher
/// }
/// ```
///
/// The container is ``Container/current`` when the owner is created, unless
/// one is given, so an owner made inside a test's container keeps using it.
/// A successful resolve is kept; a failed one is tried again on the next read.
/// Like a `lazy var`, it is not safe to read for the first time from two
/// threads at once.
///
/// > Warning: Reading the property when resolution fails stops the program
/// > with the full ``ResolutionError`` message. Read `try $fetcher.get()` to
/// > handle the failure instead.
@propertyWrapper
public struct LazyInjected<Service> {
    private let storage: LazyInjectionStorage<Service>

    /// Remembers what to resolve, and from which container, for the first read.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; usually inferred from the property.
    ///   - name: The registration name, or nil.
    ///   - container: Where to resolve from; by default the task's current container now.
    public init(_ serviceType: Service.Type = Service.self, name: String? = nil, container: Container? = nil) {
        storage = LazyInjectionStorage(container: container ?? Container.current, name: name)
    }

    /// The service, resolved on first read; stops the program if it cannot be resolved.
    public var wrappedValue: Service {
        do {
            return try storage.get()
        } catch {
            injectionFailed("@LazyInjected \(Service.self)", error)
        }
    }

    /// The service's resolution, to read without trapping: `try $property.get()`.
    public var projectedValue: Injection<Service> {
        let storage = storage
        return Injection { () throws(ResolutionError) -> Service in try storage.get() }
    }
}

/// The lazily resolved value behind ``LazyInjected``.
final class LazyInjectionStorage<Service> {
    private let container: Container
    private let name: String?
    private var service: Service?

    init(container: Container, name: String?) {
        self.container = container
        self.name = name
    }

    func get() throws(ResolutionError) -> Service {
        if let service { return service }
        let resolved = try container.resolve(Service.self, name: name)
        service = resolved
        return resolved
    }
}
