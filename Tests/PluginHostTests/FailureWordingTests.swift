import Glibc
import PluginBoundary
import Testing

@testable import PluginHost

/// Failures are carried as types and worded only when shown: each kind
/// reads as the line users saw when it was carried as text.
@Suite("Typed failures, worded when shown")
struct FailureWordingTests {
    static let denied = SystemError(operation: "open", errno: EACCES)

    @Test("A failed system call reads as the call on what it acted on, and its errno's text")
    func systemError() {
        #expect(Self.denied.description == "cannot open it: Permission denied")
        #expect(SystemError(operation: "start a worker", errno: EAGAIN).sentence == "cannot start a worker: Resource temporarily unavailable")
        #expect(SystemError(operation: "read", errno: ENOENT).sentence(about: "/srv/eth.json") == "cannot read /srv/eth.json: No such file or directory")
        #expect(PluginCallThread.startError(EAGAIN).sentence == "cannot start a thread for the plugin call: Resource temporarily unavailable")
    }

    @Test("A fetch's failures name the plugin and what it did", arguments: [
        (FetchError.Kind.pluginFailed(plugin: "P", message: "rate limited"), "rate limited"),
        (.pluginFailed(plugin: "P", message: ""), "P failed without a message"),
        (.malformedResult(plugin: "P"), "P passed a NULL or undersized pb_fetch_result"),
        (.noLongerRegistered(plugin: "P", path: "/p/libP.so"), "P (/p/libP.so) no longer registers ETH"),
        (.noFetcherInWorker, "the worker has no fetcher for ETH"),
        (.notCalled(PluginCallThread.startError(EAGAIN)), "cannot start a thread for the plugin call: Resource temporarily unavailable"),
        (
            .notLoaded(plugin: "P", path: "/p/libP.so", PluginLoadError(.unreadable(denied))),
            "P (/p/libP.so) could not be loaded: not a loadable plugin library: cannot open it: Permission denied; remove it from the plugins directory or rebuild it"
        ),
    ])
    func fetchError(kind: FetchError.Kind, message: String) {
        #expect(FetchError(symbol: "ETH", kind).message == message)
    }

    @Test("A plugin file, or its directory, that cannot be opened says which")
    func unreadablePluginFile() {
        #expect(PluginLoadError(.unreadable(Self.denied)).libraryProblem == "cannot open it: Permission denied")
        #expect(
            PluginLoadError(.unreadable(SystemError(operation: "stat", errno: EACCES), directory: "/p")).description
                == "not a loadable plugin library: cannot stat its directory /p: Permission denied; remove it from the plugins directory or rebuild it")
    }

    @Test("A worker that cannot be started says which step failed")
    func spawnFailure() {
        let error = WorkerError(.loading, .spawnFailed(SystemError(operation: "run /opt/patchbay-worker", errno: ENOENT)), plugin: "P")
        #expect(error.message(naming: SettingNames()).contains("cannot start an isolated worker for P: cannot run /opt/patchbay-worker: No such file or directory; "))
    }
}
