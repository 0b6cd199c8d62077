extension Container {
    /// Registers a service built by an initializer that takes one run-time argument; every other parameter is resolved.
    ///
    /// SwinjectAutoregistration's `autoregister(_:argument:initializer:)`:
    /// each parameter whose type is exactly `argument` receives the value passed
    /// to `resolve(_:arguments:)`; every other parameter is resolved from the
    /// container, unnamed and without arguments, in order.
    ///
    /// ```swift
    /// struct Price { init(amount: String, formatter: Formatter) { … } }
    /// container.autoregister(Price.self, argument: String.self, initializer: Price.init(amount:formatter:))
    /// let price = try container.resolve(Price.self, arguments: "12.50")
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The type to register.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - scope: How long instances live; nil for the container's ``defaultScope``.
    ///   - argument: The argument's type, part of the key as in ``register(_:name:scope:factory:)``.
    ///   - initializer: Any function that takes the argument and registered services.
    /// - Returns: Options to chain, such as ``RegistrationOptions/implements(_:name:)``.
    @discardableResult
    public func autoregister<Service, Argument, each Dependency>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope? = nil,
        argument: Argument.Type,
        initializer: @escaping @Sendable (repeat each Dependency) throws -> Service
    ) -> RegistrationOptions<Service> {
        register(serviceType, name: name, scope: scope) { (resolver: any Resolver, value: Argument) in
            try initializer(repeat try Container.parameter((each Dependency).self, given: value, resolver: resolver))
        }
    }

    /// One parameter of an autoregistered initializer: the argument if the parameter has its type, else resolved.
    private static func parameter<Parameter, Argument>(
        _ parameter: Parameter.Type, given argument: Argument, resolver: any Resolver
    ) throws(ResolutionError) -> Parameter {
        if Parameter.self == Argument.self, let value = argument as? Parameter {
            return value
        }
        return try resolver.resolve(Parameter.self, name: nil)
    }
}
