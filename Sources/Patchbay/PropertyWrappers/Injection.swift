/// The outcome of a property wrapper's resolution, read without trapping: the wrapper's projected value.
///
/// ```swift
/// final class PriceViewModel {
///     @Injected var fetcher: PriceFetcher
///
///     func start() throws {
///         let fetcher = try $fetcher.get() // throws instead of trapping
///     }
/// }
/// ```
public struct Injection<Service> {
    private let load: () throws(ResolutionError) -> Service

    init(_ load: @escaping () throws(ResolutionError) -> Service) {
        self.load = load
    }

    /// The service, resolving it first if the wrapper is lazy.
    ///
    /// - Returns: The service.
    /// - Throws: ``ResolutionError`` if it could not be resolved.
    public func get() throws(ResolutionError) -> Service {
        try load()
    }

    /// The error that resolution failed with, or nil if it succeeded; resolves first if the wrapper is lazy.
    public var error: ResolutionError? {
        do {
            _ = try load()
            return nil
        } catch {
            return error
        }
    }
}

/// Stops the program with the full resolution error, for a wrapper read whose service could not be resolved.
///
/// NB: a property wrapper's getter cannot throw, and it has no value to
/// return; this is the one place Patchbay traps, and only when the program
/// reads a value that does not exist. Every wrapper offers `$name.get()` to
/// handle the error instead.
func injectionFailed(_ wrapper: String, _ error: ResolutionError) -> Never {
    fatalError(
        """
        \(wrapper) could not resolve its service.
        \(error)

        Read the projected value, `try $property.get()`, to handle this error instead of stopping, \
        and check the container with `try container.verify()` in a test.
        """)
}
