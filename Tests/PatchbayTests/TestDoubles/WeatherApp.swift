import Patchbay

// The seed's tutorial app (Swinject's weather example), as it ports to
// Patchbay: services built by autoregistration, and a view controller whose
// dependency a storyboard would inject into a property. There is no UIKit on
// Linux, so `WeatherTableViewController` is a main-actor class shaped like one.

/// One city's weather, as the app shows it.
struct City: Sendable, Equatable {
    let name: String
    let weather: String
}

/// The app's network access.
protocol Networking: Sendable {
    func request(_ path: String) -> String
}

/// Answers the weather API's path with fixed JSON-like text, as a stub network would.
struct Network: Networking {
    func request(_ path: String) -> String { "Tokyo:Clear,London:Rain" }
}

/// Fetches the cities' weather through whatever `Networking` it is given.
struct WeatherFetcher: Sendable {
    let networking: any Networking

    init(networking: any Networking) { self.networking = networking }

    func fetch() -> [City] {
        networking.request("/weather").split(separator: ",").map { entry in
            let parts = entry.split(separator: ":")
            return City(name: String(parts[0]), weather: String(parts[1]))
        }
    }
}

/// The storyboard's view controller: built with no arguments, its fetcher injected afterwards.
@MainActor
final class WeatherTableViewController {
    var weatherFetcher: WeatherFetcher?
    private(set) var cities: [City] = []

    func viewDidLoad() {
        cities = weatherFetcher?.fetch() ?? []
    }
}

/// The app's composition, from the tutorial: what its `AppDelegate` registers.
enum WeatherApp {
    static func makeContainer() -> Container {
        let container = Container()
        container.autoregister((any Networking).self, initializer: Network.init)
        container.autoregister(WeatherFetcher.self, initializer: WeatherFetcher.init(networking:))
        // SwinjectStoryboard's `storyboardInitCompleted(WeatherTableViewController.self) { r, c in … }`:
        container.registerMainActor(WeatherTableViewController.self) { _ in WeatherTableViewController() }
            .initCompleted { r, controller in controller.weatherFetcher = try r.resolve(WeatherFetcher.self) }
        return container
    }
}
