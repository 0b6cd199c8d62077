import Synchronization

/// The floor: the least a container can do, a dictionary of factories behind one Mutex.
///
/// No names, arguments, scopes beyond "singleton or not", cycle detection or
/// diagnostics; `resolve` locks, looks up, unlocks, then calls the factory
/// and casts its result.
final class DictionaryContainer: Sendable {
    private enum Entry {
        case singleton(any Sendable)
        case factory(@Sendable (DictionaryContainer) -> Any)
        case argumentFactory(@Sendable (DictionaryContainer, Int) -> Any)
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    func registerSingleton<Service: Sendable>(_ type: Service.Type, _ instance: Service) {
        entries.withLock { $0[ObjectIdentifier(type)] = .singleton(instance) }
    }

    func register<Service>(_ type: Service.Type, _ factory: @escaping @Sendable (DictionaryContainer) -> Service) {
        entries.withLock { $0[ObjectIdentifier(type)] = .factory(factory) }
    }

    func register<Service>(
        _ type: Service.Type, _ factory: @escaping @Sendable (DictionaryContainer, Int) -> Service
    ) {
        entries.withLock { $0[ObjectIdentifier(type)] = .argumentFactory(factory) }
    }

    func resolve<Service>(_ type: Service.Type) -> Service? {
        switch entries.withLock({ $0[ObjectIdentifier(type)] }) {
        case .singleton(let instance): instance as? Service
        case .factory(let factory): factory(self) as? Service
        case .argumentFactory, nil: nil
        }
    }

    func resolve<Service>(_ type: Service.Type, argument: Int) -> Service? {
        guard case .argumentFactory(let factory) = entries.withLock({ $0[ObjectIdentifier(type)] }) else {
            return nil
        }
        return factory(self, argument) as? Service
    }
}
