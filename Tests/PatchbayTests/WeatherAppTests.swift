import Patchbay
import Testing

/// The seed's tutorial app, ported as Getting Started shows it, runs.
@Suite struct WeatherAppTests {
    @MainActor
    @Test func theViewControllerIsBuiltWithItsFetcherInjectedAndLoads() throws {
        let container = WeatherApp.makeContainer()
        let controller = try container.resolve(WeatherTableViewController.self)
        #expect(controller.weatherFetcher != nil)
        controller.viewDidLoad()
        #expect(controller.cities == [City(name: "Tokyo", weather: "Clear"), City(name: "London", weather: "Rain")])
    }

    @Test func theWholeAppVerifies() async throws {
        let container = WeatherApp.makeContainer()
        try await MainActor.run { _ = try container.verify() }
    }
}
