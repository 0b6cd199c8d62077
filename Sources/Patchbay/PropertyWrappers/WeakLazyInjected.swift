/// A property resolved on first read and then held weakly: nil once nothing else holds the service.
///
/// ```swift
/// final class PriceCell {
///     @WeakLazyInjected var coordinator: Coordinator?
/// }
/// ```
///
/// Resolution happens once, on the first read, from ``Container/current`` as
/// it was when the owner was created, unless a container is given. A service
/// that is not a class instance cannot be held weakly, and is held strongly.
/// Like a `lazy var`, it is not safe to read for the first time from two
/// threads at once.
///
/// > Warning: Reading the property when resolution fails stops the program
/// > with the full ``ResolutionError`` message. Read `try $coordinator.get()`
/// > to handle the failure instead.
@propertyWrapper
public struct WeakLazyInjected<Service> {
    private let storage: WeakInjectionStorage<Service>

    /// Remembers what to resolve, and from which container, for the first read.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; usually inferred from the property.
    ///   - name: The registration name, or nil.
    ///   - container: Where to resolve from; by default the task's current container now.
    public init(_ serviceType: Service.Type = Service.self, name: String? = nil, container: Container? = nil) {
        storage = WeakInjectionStorage(container: container ?? Container.current, name: name)
    }

    /// The service while something else holds it, resolved on first read; stops the program if resolution fails.
    public var wrappedValue: Service? {
        do {
            return try storage.get()
        } catch {
            injectionFailed("@WeakLazyInjected \(Service.self)", error)
        }
    }

    /// The service's resolution, to read without trapping: `try $property.get()`.
    public var projectedValue: Injection<Service?> {
        let storage = storage
        return Injection { () throws(ResolutionError) -> Service? in try storage.get() }
    }
}

/// The weakly held value behind ``WeakLazyInjected``.
final class WeakInjectionStorage<Service> {
    private let container: Container
    private let name: String?
    private var resolved = false
    private weak var object: AnyObject?
    private var value: Service?

    init(container: Container, name: String?) {
        self.container = container
        self.name = name
    }

    func get() throws(ResolutionError) -> Service? {
        if !resolved {
            let service = try container.resolve(Service.self, name: name)
            resolved = true
            let boxed: Any = service
            if type(of: boxed) is AnyClass {
                object = boxed as AnyObject
            } else {
                value = service
            }
            return service
        }
        if let value { return value }
        return object as? Service
    }
}
