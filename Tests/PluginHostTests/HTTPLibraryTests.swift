import Foundation
import Testing

@testable import PluginHost

/// `AsyncHTTPClientNetworking` loads the HTTP client from `libHostHTTP.so`
/// on its first request; these talk to it directly, over loopback.
@Suite("The HTTP client library")
struct HTTPLibraryTests {
    private static let library = CommandRunner.buildDirectory.appending(path: AsyncHTTPClientNetworking.libraryName).path

    @Test("The first request loads the library and returns the status and body")
    func response() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/BTC-USD/spot": .respond(status: 404, body: "{\"errors\":[]}")])
        let networking = AsyncHTTPClientNetworking(libraryPath: Self.library)
        let outcome = await networking.get(try #require(URL(string: server.baseURL + "/v2/prices/BTC-USD/spot")), timeout: .seconds(5))
        await server.stop()
        #expect(outcome == .response(status: 404, body: Array("{\"errors\":[]}".utf8)))
    }

    @Test("A request past its deadline fails and says after how long")
    func timeout() async throws {
        let server = try await LoopbackPriceServer(routes: ["/slow": .hang])
        let networking = AsyncHTTPClientNetworking(libraryPath: Self.library)
        let outcome = await networking.get(try #require(URL(string: server.baseURL + "/slow")), timeout: .milliseconds(300))
        await server.stop()
        #expect(outcome == .failure("timed out after 300 ms"))
    }

    @Test("A missing library is one line that names it and says how to build it")
    func missing() async throws {
        let networking = AsyncHTTPClientNetworking(libraryPath: "/nonexistent/libHostHTTP.so")
        let outcome = await networking.get(try #require(URL(string: "http://127.0.0.1:9/")), timeout: .seconds(1))
        guard case .failure(let message) = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        #expect(message.hasPrefix("cannot load /nonexistent/libHostHTTP.so, the host's HTTP client ("))
        #expect(message.hasSuffix("build it with `swift build`"))
        #expect(!message.contains("\n"))
    }

    @Test("A library that is not the HTTP client is refused before any call")
    func notTheClient() async throws {
        let impostor = try FixturePlugins.privateCopy(of: .cPlugin).path
        let networking = AsyncHTTPClientNetworking(libraryPath: impostor)
        let outcome = await networking.get(try #require(URL(string: "http://127.0.0.1:9/")), timeout: .seconds(1))
        #expect(outcome == .failure("\(impostor) is not the host's HTTP client: it lacks host_http_get; rebuild it with `swift build`"))
    }
}
