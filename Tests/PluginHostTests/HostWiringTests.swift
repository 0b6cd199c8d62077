import PluginBoundary
@testable import PluginHost
import Testing

/// The composition root: flags over environment variables over defaults,
/// with the environment injected as a value, not read from the process.
@Suite("Host wiring from settings and the environment")
struct HostWiringTests {
    static func wiring(_ settings: HostSettings = HostSettings(), _ variables: [HostEnvironment.Variable: String] = [:]) -> HostWiring {
        HostWiring(settings: settings, environment: HostEnvironment(variables, workingDirectory: "/work"), names: SettingNames(apiBaseURL: "--api-base-url"))
    }

    @Test("The API bases: the settings, else HOST_API_BASE_URL, else what each plugin declares, else Coinbase")
    func apiBase() throws {
        var settings = HostSettings()
        settings.apiBaseURLs = ["http://flag.test", "BitstampPlugin=file:///srv/bitstamp"]
        let fromFlags = try Self.wiring(settings, [.apiBaseURL: "http://variable.test"]).apiBases()
        #expect(fromFlags == APIBases(byPlugin: ["BitstampPlugin": "file:///srv/bitstamp"], everyPlugin: "http://flag.test"))
        let fromVariable = try Self.wiring(HostSettings(), [.apiBaseURL: "http://variable.test  P=https://p.test"]).apiBases()
        #expect(fromVariable == APIBases(byPlugin: ["P": "https://p.test"], everyPlugin: "http://variable.test"))
        #expect(try Self.wiring().apiBases() == APIBases())
        #expect(APIBases().base(for: "EthereumPlugin", declared: nil) == APIBase("https://api.coinbase.com", .fallback))
    }

    @Test("A bad value names where it came from")
    func badValueNamesItsOrigin() {
        #expect(throws: HostSettingError(kind: .apiBase(APIBaseError(entry: "ftp://x", .notAURL("ftp://x")), from: .variable(.apiBaseURL)))) {
            try Self.wiring(HostSettings(), [.apiBaseURL: "ftp://x"]).apiBases()
        }
        #expect(throws: HostSettingError(kind: .notBoolean(.isolate, value: "maybe"))) {
            try Self.wiring(HostSettings(), [.isolate: "maybe"]).policy()
        }
    }

    @Test("Where plugins run: the isolate setting over HOST_ISOLATE, and a required sandbox against isolation off is refused")
    func policy() throws {
        var isolateNone = HostSettings()
        isolateNone.isolate = false
        #expect(try Self.wiring(HostSettings(), [.isolate: "1"]).policy() == .everything(because: "HOST_ISOLATE=1"))
        #expect(try Self.wiring(isolateNone, [.isolate: "1"]).policy() == .nothing(because: SettingNames().isolateNone))
        #expect(try Self.wiring().policy() == .byTrust)
        #expect(throws: HostSettingError(kind: .sandboxSwitchedOff(requiredBy: .variable(.requireSandbox), switchedOffBy: .option))) {
            try Self.wiring(isolateNone, [.requireSandbox: "1"]).policy()
        }
    }

    @Test("The registry cache lives under XDG_CACHE_HOME, else HOME/.cache, and HOST_NO_CACHE=1 turns it off")
    func cache() throws {
        #expect(try Self.wiring(HostSettings(), [.xdgCacheHome: "/c"]).cacheUse() == .use(cacheHome: "/c"))
        #expect(try Self.wiring(HostSettings(), [.home: "/h"]).cacheUse() == .use(cacheHome: "/h/.cache"))
        #expect(try Self.wiring(HostSettings(), [.home: "/h", .noCache: "1"]).cacheUse() == .off)
        #expect(try Self.wiring().cacheUse() == .off)
    }

    @Test("Plugins are searched in the current directory the environment gives")
    func discovery() throws {
        let locations = try Self.wiring(HostSettings(), [.xdgDataHome: "/d"]).discovery().locations.map(\.directory)
        #expect(locations.contains("/d/patchbay/plugins"))
        #expect(locations.last == "/work/plugins")
    }
}
