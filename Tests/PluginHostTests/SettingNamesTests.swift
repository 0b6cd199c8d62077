import Glibc
import PluginBoundary
@testable import HostCommand
@testable import PluginHost
import Testing

/// The library words its fixes with the caller's names for settings; `host`
/// passes its flags, and no flag is written in the library.
@Suite("Errors worded with the caller's setting names")
struct SettingNamesTests {
    static let plugin = "SlowPlugin"

    /// Each error whose fix is a setting, with the library's wording and `host`'s.
    static let cases: [(FetchError, library: String, host: String)] = [
        (
            FetchError(symbol: "ETH", .timedOut(after: .seconds(2), plugin: plugin)),
            "raise the fetch timeout to wait longer", "raise --timeout to wait longer"
        ),
        (
            FetchError(symbol: "ETH", .neverAnswered(after: .seconds(2), plugin: plugin)),
            "or raise the fetch timeout if it is only slow", "or raise --timeout if it is only slow"
        ),
        (
            FetchError(symbol: "ETH", .unknownSymbol(available: [])),
            "restore the bundled plugins, or name a plugins directory", "restore the bundled plugins, or pass --plugins-dir"
        ),
        (
            { var error = FetchError(symbol: "DOGE", .unknownSymbol(available: ["ETH"])); error.failedPluginFiles = 1; return error }(),
            "may provide it: list the plugins to see why", "may provide it: run `host list-plugins` to see why"
        ),
        (
            FetchError(symbol: "ETH", .worker(WorkerError(.fetching, .hung(after: .seconds(1)), plugin: plugin))),
            "raise the fetch timeout if it is only slow", "raise --timeout if it is only slow"
        ),
        (
            FetchError(symbol: "ETH", .worker(WorkerError(.loading, .hung(after: .seconds(1)), plugin: plugin))),
            "raise the load timeout if it is only slow", "raise --load-timeout if it is only slow"
        ),
        (
            FetchError(symbol: "ETH", .worker(WorkerError(.loading, .spawnFailed(SystemError(operation: "start a worker", errno: ENOENT)), plugin: plugin))),
            "No such file or directory; load plugins in-process, or check", "No such file or directory; run without --isolate, or check"
        ),
    ]

    @Test("The library's own wording names no flag; host's names its flags", arguments: cases)
    func wording(error: FetchError, library: String, host: String) {
        #expect(error.message.contains(library), "\(error.message)")
        #expect(!error.description.contains("--") && !error.description.contains("`host "), "\(error.description)")
        #expect(error.message(naming: .host).contains(host), "\(error.message(naming: .host))")
        #expect(error.description(naming: .host) == "\(error.symbol): \(error.message(naming: .host))")
    }

    @Test("A setting the host cannot use is worded with the caller's names: flags for host, none in the library")
    func settingWording() {
        let error = HostSettingError(kind: .sandboxSwitchedOff(requiredBy: .option, switchedOffBy: .variable(.isolate)))
        #expect(error.message(naming: SettingNames()) == "requiring the sandbox runs plugins in sandboxed workers, which HOST_ISOLATE=0 turns off; drop one of the two")
        #expect(error.message(naming: .host) == "--require-sandbox runs plugins in sandboxed workers, which HOST_ISOLATE=0 turns off; drop one of the two")
    }
}
