import Patchbay
import Testing

/// A main-actor model with state only the main actor may touch.
@MainActor
final class CounterModel {
    var label = "new"
    let fetcher: WeatherFetcher?

    init(fetcher: WeatherFetcher? = nil) { self.fetcher = fetcher }
}

/// `registerMainActor`: factories and completions on the main actor; a resolve off it throws, never traps.
@Suite struct MainActorRegistrationTests {
    @MainActor
    @Test func aMainActorServiceResolvesSynchronouslyOnTheMainActor() throws {
        let container = Container()
        container.autoregister(WeatherFetcher.self, initializer: WeatherFetcher.init(networking:))
        container.register((any Networking).self) { _ in Network() }
        container.registerMainActor(CounterModel.self) { r in CounterModel(fetcher: try r.resolve(WeatherFetcher.self)) }
            .initCompleted { _, model in model.label = "completed" }
        let model = try container.resolve(CounterModel.self)
        #expect(model.label == "completed")
        #expect(model.fetcher?.fetch().count == 2)
    }

    @MainActor
    @Test func aMainActorServiceTakesArgumentsAndKeepsItsScope() throws {
        let container = Container()
        container.registerMainActor(CounterModel.self, scope: .singleton) { (_, label: String) in
            let model = CounterModel()
            model.label = label
            return model
        }
        let first = try container.resolve(CounterModel.self, arguments: "one")
        #expect(first.label == "one")
        #expect(try container.resolve(CounterModel.self, arguments: "two") === first)
    }

    @Test func resolvingAMainActorServiceOffTheMainActorThrows() async throws {
        let container = Container()
        let built = Counter()
        container.registerMainActor(CounterModel.self) { _ in
            built.increment()
            return CounterModel()
        }
        // NB: a detached task runs on the cooperative pool, never on the main thread.
        let error = await Task.detached { () -> ResolutionError? in
            do throws(ResolutionError) {
                _ = try container.resolve(CounterModel.self)
                return nil
            } catch {
                return error
            }
        }.value
        #expect(error?.code == .factoryFailed)
        let underlying = error?.underlyingError as? MainActorResolutionError
        #expect(underlying?.serviceTypeName.hasSuffix("CounterModel") == true)
        #expect(underlying?.description.contains("registered with `registerMainActor`") == true)
        #expect(built.count == 0)
        // The same container still resolves it on the main actor.
        let label = try await MainActor.run { try container.resolve(CounterModel.self).label }
        #expect(label == "new")
    }

    @Test func aServiceThatNeedsAMainActorOneThrowsOffTheMainActorToo() async throws {
        let container = Container()
        container.registerMainActor(CounterModel.self) { _ in CounterModel() }
        container.register(Holder.self) { r in Holder(model: try r.resolve(CounterModel.self)) }
        let error = await Task.detached { () -> ResolutionError? in
            do throws(ResolutionError) {
                _ = try container.resolve(Holder.self)
                return nil
            } catch {
                return error
            }
        }.value
        #expect(error?.underlyingError is MainActorResolutionError)
        #expect(error?.pathDescription.contains("Holder") == true)
    }

    @MainActor
    @Test func aNonSendableObjectOfTheMainActorRegistersAsAnInstance() throws {
        let container = Container()
        let window = Window(title: "main")
        container.registerMainActor(Window.self, instance: window)
        #expect(try container.resolve(Window.self) === window)
    }

    @Test func aMainActorInstanceIsNotHandedToAnotherThread() async throws {
        let container = Container()
        await MainActor.run { _ = container.registerMainActor(Window.self, instance: Window(title: "main")) }
        let code = await Task.detached { () -> ResolutionError.Code? in
            do throws(ResolutionError) {
                _ = try container.resolve(Window.self)
                return nil
            } catch {
                return error.code
            }
        }.value
        #expect(code == .factoryFailed)
    }
}

/// A nonisolated service that depends on a main-actor one.
final class Holder: Sendable {
    let model: CounterModel
    init(model: CounterModel) { self.model = model }
}

/// A non-`Sendable` object that only the main actor touches, like a UIKit window.
final class Window {
    var title: String
    init(title: String) { self.title = title }
}
