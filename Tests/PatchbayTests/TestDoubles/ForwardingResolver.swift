import Patchbay

/// A resolver that is not a `Container`: it forwards every request to one.
final class ForwardingResolver: Resolver {
    let container: Container
    init(_ container: Container) { self.container = container }

    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws(ResolutionError) -> Service {
        try container.resolve(serviceType, name: name)
    }

    func resolve<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try container.resolve(serviceType, name: name, arguments: repeat each arguments)
    }

    func resolveIfRegistered<Service>(_ serviceType: Service.Type, name: String?) throws(ResolutionError) -> Service? {
        try container.resolveIfRegistered(serviceType, name: name)
    }

    func resolveIfRegistered<Service, each Argument>(
        _ serviceType: Service.Type, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Service? {
        try container.resolveIfRegistered(serviceType, name: name, arguments: repeat each arguments)
    }
}
