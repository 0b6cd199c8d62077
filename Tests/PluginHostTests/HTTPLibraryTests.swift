import Foundation
import Testing

@testable import PluginHost

/// `HostHTTPNetworking` loads the HTTP client from `libHostHTTP.so`
/// on its first request; these talk to it directly, over loopback.
@Suite("The HTTP client library", .timeLimit(.minutes(10)))
struct HTTPLibraryTests {
    private static let library = CommandRunner.buildDirectory.appending(path: HostHTTPNetworking.libraryName).path

    @Test("The first request loads the library and returns the status and body")
    func response() async throws {
        let server = try await LoopbackPriceServer(routes: ["/v2/prices/BTC-USD/spot": .respond(status: 404, body: "{\"errors\":[]}")])
        let networking = HostHTTPNetworking(libraryPath: Self.library)
        let outcome = await networking.get(try #require(URL(string: server.baseURL + "/v2/prices/BTC-USD/spot")), timeout: .seconds(60))
        await server.stop()
        #expect(outcome == .response(status: 404, body: Array("{\"errors\":[]}".utf8)))
    }

    @Test("A request past its deadline fails and says after how long")
    func timeout() async throws {
        let server = try await LoopbackPriceServer(routes: ["/slow": .hang, "/fast": .respond(status: 200, body: "{}")])
        // This is the library's own deadline: the host's safety net, 2 s
        // after it by default, raced it and won on a loaded machine (thirty
        // runnable processes per core), so here the net waits a minute.
        let networking = HostHTTPNetworking(libraryPath: Self.library, grace: .seconds(60))
        // A first request loads the library and starts its client, which
        // the library's deadline does not count: made first, the 300 ms
        // deadline below covers only the request.
        #expect(await networking.get(try #require(URL(string: server.baseURL + "/fast")), timeout: .seconds(30)) == .response(status: 200, body: Array("{}".utf8)))
        let outcome = await networking.get(try #require(URL(string: server.baseURL + "/slow")), timeout: .milliseconds(300))
        await server.stop()
        #expect(outcome == .failure("timed out after 300 ms"))
    }

    @Test("A missing library is one line that names it and says how to build it")
    func missing() async throws {
        let networking = HostHTTPNetworking(libraryPath: "/nonexistent/libHostHTTP.so")
        let outcome = await networking.get(try #require(URL(string: "http://127.0.0.1:9/")), timeout: .seconds(1))
        guard case .failure(let message) = outcome else { Issue.record("expected a failure, got \(outcome)"); return }
        #expect(message.hasPrefix("cannot load /nonexistent/libHostHTTP.so, the host's HTTP client ("))
        #expect(message.hasSuffix("; run `swift build` in \(FixturePlugins.repositoryRoot.standardized.path) to restore it"), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test("A library that is not the HTTP client is refused before any call")
    func notTheClient() async throws {
        let impostor = try await FixturePlugins.privateCopy(of: .cPlugin).path
        let networking = HostHTTPNetworking(libraryPath: impostor)
        let outcome = await networking.get(try #require(URL(string: "http://127.0.0.1:9/")), timeout: .seconds(1))
        #expect(outcome == .failure("\(impostor) is not the host's HTTP client: it lacks host_http_abi_version; run `swift build` in \(FixturePlugins.repositoryRoot.standardized.path) to restore it"))
    }

    @Test("A library built for another HTTP ABI is refused, naming both versions")
    func otherVersion() async throws {
        let library = try await FixturePlugins.httpLibrary(reportingVersion: 99).path
        let networking = HostHTTPNetworking(libraryPath: library)
        let outcome = await networking.get(try #require(URL(string: "http://127.0.0.1:9/")), timeout: .seconds(1))
        #expect(outcome == .failure("\(library) has HTTP ABI version 99 but this host needs 3; run `swift build` in \(FixturePlugins.repositoryRoot.standardized.path) to restore both"))
    }

    @Test("A library that never answers is answered for by the host, after the request's deadline and the grace")
    func silentLibrary() async throws {
        let library = try await FixturePlugins.silentHTTPLibrary().path
        let networking = HostHTTPNetworking(libraryPath: library, grace: .milliseconds(200))
        let outcome = await networking.get(try #require(URL(string: "http://127.0.0.1:9/")), timeout: .milliseconds(100))
        #expect(outcome == .failure("the HTTP client did not answer within 300 ms"))
    }

    @Test("A body over the limit fails in one line, across the C boundary")
    func bodyTooLarge() async throws {
        let server = try await LoopbackPriceServer(routes: ["/big": .respond(status: 200, body: String(repeating: "x", count: 100))])
        let networking = HostHTTPNetworking(maximumBodySize: 10, libraryPath: Self.library)
        let outcome = await networking.get(try #require(URL(string: server.baseURL + "/big")), timeout: .seconds(60))
        await server.stop()
        #expect(outcome == .failure("response body larger than 10 bytes"))
    }

    @Test("Concurrent requests each get their own answer")
    func concurrent() async throws {
        let routes = Dictionary(uniqueKeysWithValues: (0..<8).map { ("/r\($0)", LoopbackPriceServer.Reply.respond(status: 200, body: "\($0)")) })
        let server = try await LoopbackPriceServer(routes: routes)
        let networking = HostHTTPNetworking(libraryPath: Self.library)
        let base = server.baseURL
        let outcomes = await withTaskGroup(of: (Int, HTTPOutcome).self) { group in
            for index in 0..<8 {
                group.addTask { (index, await networking.get(URL(string: base + "/r\(index)")!, timeout: .seconds(60))) }
            }
            return await group.reduce(into: [Int: HTTPOutcome]()) { $0[$1.0] = $1.1 }
        }
        await server.stop()
        for index in 0..<8 {
            #expect(outcomes[index] == .response(status: 200, body: Array("\(index)".utf8)))
        }
    }

    @Test("A host without the library lists plugins, and an http fetch says what is missing")
    func hostWithoutLibrary() async throws {
        let directory = try TemporaryDirectory.make()
        // Everything an install holds but the library: the worker scans the bundled plugins.
        try await BuildCopies.copy(["host", "patchbay-worker", "libBitcoinPlugin.so", "libEthereumPlugin.so"], to: directory)
        let host = directory.appending(path: "host")

        let list = try await CommandRunner.host(["list-fetchers", "--format", "json"], executable: host)
        #expect(list.status == 0)
        #expect(list.stdout.contains("\"ETH\""))

        let fetch = try await CommandRunner.host(["fetch", "ETH", "--api-base-url", "http://127.0.0.1:9"], executable: host)
        #expect(fetch.status == 1)
        let missing = directory.appending(path: HostHTTPNetworking.libraryName).path
        #expect(fetch.stderr.contains("cannot load \(missing), the host's HTTP client ("))
        #expect(fetch.stderr.split(separator: "\n").count == 1)
    }
}
