/// A property resolved from the current container when its owner is created, or nil if not registered.
///
/// ```swift
/// final class PriceViewModel {
///     @OptionalInjected var analytics: Analytics?
/// }
/// ```
///
/// Only "not registered" yields nil. Any other failure, such as a missing
/// dependency of a registered service, is kept as an error.
///
/// > Warning: Reading the property after such an error stops the program
/// > with the full ``ResolutionError`` message. Read `try $analytics.get()`
/// > to handle it instead.
@propertyWrapper
public struct OptionalInjected<Service> {
    private let result: Result<Service?, ResolutionError>

    /// Resolves the service now, if it is registered.
    ///
    /// - Parameters:
    ///   - serviceType: The service type; usually inferred from the property.
    ///   - name: The registration name, or nil.
    ///   - container: Where to resolve from; by default the task's current container.
    public init(_ serviceType: Service.Type = Service.self, name: String? = nil, container: Container? = nil) {
        let container = container ?? Container.current
        do {
            result = .success(try container.resolveIfRegistered(serviceType, name: name))
        } catch {
            result = .failure(error)
        }
    }

    /// The service, or nil if it is not registered; stops the program on any other error.
    public var wrappedValue: Service? {
        switch result {
        case .success(let service): service
        case .failure(let error): injectionFailed("@OptionalInjected \(Service.self)", error)
        }
    }

    /// The outcome of resolution, to read without trapping: `try $property.get()`.
    public var projectedValue: Injection<Service?> {
        let result = result
        return Injection { () throws(ResolutionError) -> Service? in try result.get() }
    }
}

extension OptionalInjected: Sendable where Service: Sendable {}
