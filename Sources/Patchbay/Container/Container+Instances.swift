extension Container {
    /// Registers a value the caller already holds: every resolve returns it.
    ///
    /// Swinject's `register(Config.self) { _ in config }` does not compile in a
    /// Swift 6 target when `config` is not `Sendable`, since a factory is a
    /// `@Sendable` closure; this is its port. The instance must be `Sendable`,
    /// because any thread may resolve it. A non-`Sendable` object that only the
    /// main actor touches registers with ``registerMainActor(_:name:instance:)``.
    ///
    /// ```swift
    /// let config = Config(baseURL: "https://api.example.com")
    /// container.register(Config.self, instance: config)
    /// ```
    ///
    /// It is a ``Scope/singleton`` registration whose instance is `instance`:
    /// `initCompleted` runs once, on the first resolve.
    ///
    /// - Parameters:
    ///   - serviceType: The type to register; by default the instance's own.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - instance: The value to return.
    /// - Returns: Options to chain, such as ``RegistrationOptions/implements(_:name:)``.
    @discardableResult
    public func register<Service: Sendable>(
        _ serviceType: Service.Type = Service.self, name: String? = nil, instance: Service
    ) -> RegistrationOptions<Service> {
        register(serviceType, name: name, scope: .singleton) { _ in instance }
    }
}
