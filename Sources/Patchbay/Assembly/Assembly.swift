/// A group of related registrations, applied to a container together.
///
/// ```swift
/// struct NetworkAssembly: Assembly {
///     func assemble(container: Container) {
///         container.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
///     }
/// }
/// let container = Container(assemblies: [NetworkAssembly(), PriceAssembly()])
/// ```
public protocol Assembly {
    /// Registers this assembly's services.
    ///
    /// - Parameter container: The container to register into.
    func assemble(container: Container)

    /// Runs after every assembly in the same list has assembled; resolve here what must exist at start-up.
    ///
    /// The default does nothing.
    ///
    /// - Parameter resolver: The container the assemblies were applied to.
    func loaded(resolver: any Resolver)
}

extension Assembly {
    /// Does nothing.
    ///
    /// - Parameter resolver: The container the assemblies were applied to.
    public func loaded(resolver: any Resolver) {}
}
