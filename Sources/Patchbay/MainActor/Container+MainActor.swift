extension Container {
    /// Registers a main-actor service, such as a view controller or a SwiftUI model: its factory and completions run on the main actor.
    ///
    /// Resolved from main-actor code, the service is built right there, with
    /// no hop and no `await`: `container.resolve` stays synchronous. Resolved
    /// off the main actor, the resolve throws a ``ResolutionError`` with code
    /// ``ResolutionError/Code/factoryFailed`` whose underlying error is a
    /// ``MainActorResolutionError``; it never stops the program.
    ///
    /// ```swift
    /// @MainActor final class WeatherViewController {
    ///     var fetcher: WeatherFetcher?
    /// }
    /// container.registerMainActor(WeatherViewController.self) { _ in WeatherViewController() }
    ///     .initCompleted { r, controller in controller.fetcher = try r.resolve(WeatherFetcher.self) }
    ///
    /// @MainActor func showWeather() throws {
    ///     let controller = try container.resolve(WeatherViewController.self)
    /// }
    /// ```
    ///
    /// Its dependencies may be any services: they are resolved on the main
    /// thread, inside the factory, like any other. A service that depends on a
    /// main-actor one is resolvable only from the main actor too.
    ///
    /// - Parameters:
    ///   - serviceType: The type to register.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - scope: How long instances live; nil for the container's ``defaultScope``.
    ///   - factory: Builds the service on the main actor.
    /// - Returns: Options to chain, whose ``MainActorRegistrationOptions/initCompleted(_:)``
    ///   runs on the main actor too.
    @discardableResult
    public func registerMainActor<Service, each Argument>(
        _ serviceType: Service.Type = Service.self,
        name: String? = nil,
        scope: Scope? = nil,
        factory: @escaping @MainActor @Sendable (any Resolver, repeat each Argument) throws -> Service
    ) -> MainActorRegistrationOptions<Service> {
        let options = register(serviceType, name: name, scope: scope) {
            (resolver: any Resolver, arguments: repeat each Argument) throws -> Service in
            // NB: checked first, so that `assumeIsolated` never stops the program.
            try MainActorCheck.require(Service.self)
            let input = MainActorHandoff((repeat each arguments))
            let output = MainActorHandoff<Service>(nil)
            try MainActor.assumeIsolated { () throws -> Void in
                guard let given = input.value else { return }
                output.value = try factory(resolver, repeat each given)
            }
            guard let made = output.value else { throw MainActorResolutionError(Service.self) }
            return made
        }
        return MainActorRegistrationOptions(options)
    }

    /// Registers an object the main actor already holds, which need not be `Sendable`: every resolve returns it.
    ///
    /// The main-actor counterpart of ``register(_:name:instance:)``: the
    /// object is handed only to main-actor code, and a resolve from any
    /// caller off the main actor throws, as for ``registerMainActor(_:name:scope:factory:)``.
    ///
    /// ```swift
    /// @MainActor func configure(_ container: Container, window: Window) {
    ///     container.registerMainActor(Window.self, instance: window)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - serviceType: The type to register; by default the instance's own.
    ///   - name: A name that tells apart registrations of the same type, or nil.
    ///   - instance: The object or value to return.
    /// - Returns: Options to chain.
    @MainActor
    @discardableResult
    public func registerMainActor<Service>(
        _ serviceType: Service.Type = Service.self, name: String? = nil, instance: Service
    ) -> MainActorRegistrationOptions<Service> {
        let box = MainActorBox(instance)
        let options = register(serviceType, name: name, scope: .singleton) { _ throws -> Service in
            try MainActorCheck.require(Service.self)
            return box.value
        }
        return MainActorRegistrationOptions(options)
    }
}
