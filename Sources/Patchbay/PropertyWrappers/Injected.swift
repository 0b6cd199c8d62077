/// A property resolved from the current container when its owner is created.
///
/// ```swift
/// final class PriceViewModel {
///     @Injected var fetcher: PriceFetcher
///     @Injected(name: "ETH") var ethereum: PriceFetcher
/// }
/// ```
///
/// The container is ``Container/current`` at initialization, unless one is
/// given. Resolution happens once, in the owner's initializer; its outcome,
/// success or error, is kept.
///
/// > Warning: Reading the property when resolution failed stops the program
/// > with the full ``ResolutionError`` message, since a getter can neither
/// > throw nor invent a service. To handle the failure instead, read
/// > `try $fetcher.get()` or check `$fetcher.error`; to find such failures
/// > early, call ``Container/verify()`` in a test.
@propertyWrapper
public struct Injected<Service> {
    private let result: Result<Service, ResolutionError>

    /// Resolves the service now.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; usually inferred from the property.
    ///   - name: The registration name, or nil.
    ///   - container: Where to resolve from; by default the task's current container.
    public init(_ serviceType: Service.Type = Service.self, name: String? = nil, container: Container? = nil) {
        let container = container ?? Container.current
        do {
            result = .success(try container.resolve(serviceType, name: name))
        } catch {
            result = .failure(error)
        }
    }

    /// The service; stops the program if it could not be resolved (see the warning above).
    public var wrappedValue: Service {
        switch result {
        case .success(let service): service
        case .failure(let error): injectionFailed("@Injected \(Service.self)", error)
        }
    }

    /// The outcome of resolution, to read without trapping: `try $property.get()`.
    public var projectedValue: Injection<Service> {
        let result = result
        return Injection { () throws(ResolutionError) -> Service in try result.get() }
    }
}

extension Injected: Sendable where Service: Sendable {}
