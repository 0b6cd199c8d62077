import Foundation
import PluginHost
import Testing

/// `--isolate`: plugins that crash, abort, exit or hang, while loading or
/// fetching, are reported with their name and the signal or status, and the
/// bundled Ethereum plugin in the same run keeps working.
@Suite("Crash isolation, end to end", .timeLimit(.minutes(10)))
struct IsolationEndToEndTests {
    static let fix = "remove it from the plugins directory or ask its author for a fix"

    func fetch(_ symbols: [String], in directory: URL, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> CommandRunner.Output {
        try await CommandRunner.host(
            ["fetch"] + symbols + ["--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + extra, environment: environment)
    }

    @Test("A plugin that segfaults while registering is reported as SIGSEGV; the others load", arguments: [
        (["--isolate"], [String: String]()), ([], ["HOST_ISOLATE": "1"]),
    ])
    func segfaultInRegistration(flags: [String], environment: [String: String]) async throws {
        let directory = try await FixturePlugins.directory(with: [.segfaultInRegistration], bundled: ["Ethereum"])
        let plugin = directory.appending(path: "segfault-in-registration.so").path
        let crash = "the plugin crashed with SIGSEGV (segmentation fault) while loading, in its isolated worker; \(Self.fix)"

        let output = try await fetch(["ETH"], in: directory, flags, environment: environment)

        #expect(output.status == 0)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == ["host: warning: skipping \(plugin): \(crash)"])

        let listed = try await CommandRunner.host(["list-plugins", "--format", "json", "--plugins-dir", directory.path] + flags, environment: environment)
        #expect(listed.status == 0)
        let rows = try HostFixtures.pluginRows(listed.stdout)
        #expect(rows["segfault-in-registration.so"]?["status"] as? String == "failed")
        #expect(rows["segfault-in-registration.so"]?["error"] as? String == crash)
        #expect(rows["libEthereumPlugin.so"]?["status"] as? String == "loaded")

        let fetchers = try await CommandRunner.host(["list-fetchers", "--plugins-dir", directory.path] + flags, environment: environment)
        // In a directory the test named, nobody vouched for the Ethereum plugin: its primary rank is believed up to secondary.
        #expect(fetchers.unlabelled.stdout.replacing(#/ +/#, with: " ") == "SYMBOL NAME PLUGIN RANK DEFAULT\nETH Ethereum EthereumPlugin 128 (declared 256, capped: nobody vouched for it) yes\n")
    }

    @Test("A plugin that hangs while loading is stopped after --load-timeout")
    func hangInLoad() async throws {
        let directory = try await FixturePlugins.directory(with: [.hangInLoad], bundled: ["Ethereum"])

        let output = try await fetch(["ETH"], in: directory, ["--isolate", "--load-timeout", "1"])

        #expect(output.status == 0)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == [
            "host: warning: skipping \(directory.path)/hang-in-load.so: the plugin did not finish loading within 1 s, so its isolated worker was stopped; raise --load-timeout if it is only slow, or \(Self.fix)"
        ])
        // The line above says the load timeout stopped it; the plugin never
        // returns, so a worker left waiting would be killed at the runner's deadline.
    }

    @Test("A plugin that aborts while fetching is reported as SIGABRT; ETH in the same run still fetches")
    func abortInFetch() async throws {
        let directory = try await FixturePlugins.directory(with: [.abortInFetch], bundled: ["Ethereum"])

        let output = try await fetch(["ABRT", "ETH"], in: directory, ["--isolate"])

        #expect(output.status == 1)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == [
            "host: error: ABRT: AbortingPlugin crashed with SIGABRT (aborted) while fetching, in its isolated worker; \(Self.fix)"
        ])
    }

    @Test("A process a plugin starts does not keep the host waiting for its worker's pipe")
    func childOutlivesWorker() async throws {
        let directory = try await FixturePlugins.directory(with: [.spawnsChild])

        // The sandbox stops `system()` (no fork, no exec, /bin unreadable,
        // and no /bin/sh in the worker's own root): without those layers the
        // child starts, and the host must still not wait for it
        // (SandboxEndToEndTests covers the sandbox).
        let output = try await fetch(["SPAWN"], in: directory, ["--isolate"], environment: ["HOST_SANDBOX_DISABLE": "landlock,seccomp,namespaces"])

        #expect(output.status == 0)
        #expect(output.stdout.contains("SPAWN   USD       3.00"))
        #expect(output.stderrLines == [
            "host: warning: isolated plugins run without a sandbox on this machine: no Landlock (turned off for this run); no seccomp filter (turned off for this run); no namespaces (turned off for this run); they are still isolated from the host as processes"
        ])
    }

    @Test("A plugin that calls exit while fetching is reported with its status")
    func exitInFetch() async throws {
        let directory = try await FixturePlugins.directory(with: [.exitInFetch], bundled: ["Ethereum"])

        let output = try await fetch(["EXIT", "ETH"], in: directory, ["--isolate"])

        #expect(output.status == 1)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.stderrLines == [
            "host: error: EXIT: ExitingPlugin exited with status 3 while fetching, in its isolated worker; \(Self.fix)"
        ])
    }

    @Test("A plugin whose fetch never returns times out at --timeout inside its worker, and ETH still fetches")
    func hangInFetch() async throws {
        let directory = try await FixturePlugins.directory(with: [.hangInFetch], bundled: ["Ethereum"])

        let output = try await fetch(["STUCK", "ETH"], in: directory, ["--isolate", "--timeout", "1"])

        #expect(output.status == 1)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        // The plugin blocks only the thread its fetch was called on, so the
        // worker's own timeout still fires.
        #expect(output.stderrLines == [
            "host: error: STUCK: StuckPlugin (unvouched, \(directory.path)/hang-in-fetch.so) never answered within 1 s, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow"
        ])
        // The plugin never returns: had the timeout not fired, the runner's
        // deadline would have killed the run and failed the test.
    }

    @Test("Every kind of broken plugin in one directory: the good ones still load and fetch over real HTTP")
    func everythingAtOnce() async throws {
        // NB: --load-timeout 10 ends the hanging load; 1 s once cut a good plugin's load under load.
        let directory = try await FixturePlugins.directory(
            with: [.segfaultInRegistration, .hangInLoad, .abortInFetch, .exitInFetch, .cPlugin], bundled: ["Ethereum", "Bitcoin"])
        let server = try await LoopbackPriceServer(routes: [
            "/v2/prices/ETH-USD/spot": .respond(status: 200, body: #"{"data":{"base":"ETH","currency":"USD","amount":"3000.5"}}"#),
            "/v2/prices/DOGE-USD/spot": .respond(status: 200, body: #"{"data":{"base":"DOGE","currency":"USD","amount":"0.25"}}"#),
        ])
        defer { Task { await server.stop() } }

        let output = try await CommandRunner.host(
            ["fetch", "ETH", "DOGE", "ABRT", "EXIT", "--isolate", "--load-timeout", "10", "--format", "json",
             "--plugins-dir", directory.path, "--api-base-url", server.baseURL])

        #expect(output.status == 1)
        let rows = try JSONDecoder().decode([[String: String]].self, from: Data(output.stdout.utf8))
        #expect(rows.map { $0["amount"] ?? $0["error"] ?? "" } == [
            "3000.5", "0.25",
            "AbortingPlugin crashed with SIGABRT (aborted) while fetching, in its isolated worker; \(Self.fix)",
            "ExitingPlugin exited with status 3 while fetching, in its isolated worker; \(Self.fix)",
        ])
        // The workers have no networking of their own: the host made these requests.
        #expect(Set(server.requests) == ["/v2/prices/ETH-USD/spot", "/v2/prices/DOGE-USD/spot"])
        #expect(output.stderrLines.count == 2, "\(output.stderr)")
        #expect(output.stderrLines.allSatisfy { $0.hasPrefix("host: warning: skipping \(directory.path)/") }, "\(output.stderr)")
    }

    @Test("Isolated workers ask the host's injected networking, not their own")
    func networkingComesFromTheHost() async throws {
        let directory = try await FixturePlugins.directory(with: [.cPlugin], bundled: ["Ethereum"])
        let networking = SimulatedNetworking([
            "/v2/prices/DOGE-EUR/spot": SimulatedNetworking.spot("DOGE", "EUR", "0.0777"),
            "/v2/prices/ETH-EUR/spot": SimulatedNetworking.spot("ETH", "EUR", "1234.5"),
        ])
        let discovery = PluginDiscovery(locations: [.init(directory: directory.path, pattern: .anySharedLibrary, isExplicit: true)])
        let host = Host(discovery: discovery, services: .simulated(networking))
        let isolation = IsolationOptions(workerExecutable: CommandRunner.buildDirectory.appending(path: "patchbay-worker").path)

        let loaded = try await Deadline.within(.seconds(60), "loading the isolated plugins") { await host.loadPlugins(isolation: isolation) }
        let results = try await Deadline.within(.seconds(60), "DOGE's and ETH's prices") {
            await loaded.fetch(["doge", "ETH"], currency: "EUR", timeout: .seconds(10))
        }
        try await Deadline.within(.seconds(60), "stopping the workers") { await loaded.shutdown() }

        #expect(loaded.reports.map(\.status) == [.loaded, .loaded])
        #expect(try results.map { try $0.get().amount } == ["0.0777", "1234.5"])
        #expect(Set(networking.requestedURLs) == ["http://prices.test/v2/prices/DOGE-EUR/spot", "http://prices.test/v2/prices/ETH-EUR/spot"])
    }

    @Test("A symbol a later plugin registers too makes it a second source under isolation too, asked after the first")
    func duplicateSymbolIsASecondSource() async throws {
        let directory = try await FixturePlugins.directory(with: [.duplicateBTC], bundled: ["Bitcoin"])
        let output = try await CommandRunner.host(["list-plugins", "--format", "json", "--isolate", "--plugins-dir", directory.path])
        let rows = try HostFixtures.pluginRows(output.stdout)
        #expect(rows["libBitcoinPlugin.so"]?["status"] as? String == "loaded")
        #expect(rows["zz-duplicate-btc.so"]?["status"] as? String == "loaded")
        #expect(rows["zz-duplicate-btc.so"]?["fetchers"] as? [String] == ["BTC"])
        let fetchers = try await CommandRunner.host(["list-fetchers", "--isolate", "--plugins-dir", directory.path])
        // Nobody vouched for either in a directory the test named: each is shown with its file.
        #expect(fetchers.stdout.split(separator: "\n").map { $0.replacing(#/ {2,}/#, with: "|") } == [
            "SYMBOL|NAME|PLUGIN|RANK|DEFAULT",
            "BTC|Bitcoin|BitcoinPlugin (unvouched, \(directory.path)/libBitcoinPlugin.so)|128 (declared 256, capped: nobody vouched for it)|yes",
            "BTC|Dogecoin (C)|DuplicateBitcoinPlugin (unvouched, \(directory.path)/zz-duplicate-btc.so)|128|-",
        ], "\(fetchers.stdout)")
    }

    @Test("patchbay-worker run by hand is one line and a usage exit code")
    func workerByHand() async throws {
        let output = try await CommandRunner.run(CommandRunner.buildDirectory.appending(path: "patchbay-worker"), [])
        #expect(output.status == 64)
        #expect(output.stderr == "patchbay-worker: error: it is started by the host, one per sandboxed plugin, with its pipes on fds 3 and 4; it is not meant to be run by hand\n")
    }

    @Test("A host without its worker says so in one line, naming where it looked, and lists the plugins that need one as failed")
    func missingWorker() async throws {
        let host = try TemporaryDirectory.make().appending(path: "bin")
        try FileManager.default.createDirectory(at: host, withIntermediateDirectories: true)
        try await BuildCopies.copy(["host"], to: host)
        let directory = try await FixturePlugins.directory(with: [.cPlugin, .exitInFetch])

        let output = try await CommandRunner.host(
            ["list-plugins", "--format", "json", "--plugins-dir", directory.path], executable: host.appending(path: "host"))

        let searched = "\(host.path)/patchbay-worker or \(host.deletingLastPathComponent().path)/lib/patchbay/patchbay-worker"
        let line = "cannot run plugins in sandboxed workers: there is no executable \(searched); this host is neither in a checkout's build folder nor installed, so it is not where it looks: run the host from its build folder, or install it with `scripts/install.sh`"
        #expect(output.stderrLines == ["host: error: \(line)"])
        let rows = try HostFixtures.pluginRows(output.stdout)
        #expect(rows.count == 2)
        #expect(rows.values.allSatisfy { $0["status"] as? String == "failed" && $0["error"] as? String == line })
    }

    @Test("A HOST_ISOLATE other than 1 or 0, as the documents say, is one usage line", arguments: ["maybe", "yes", "true", "on", "no", "off", "YES", " 1"])
    func badEnvironment(value: String) async throws {
        let output = try await CommandRunner.host(["list-fetchers"], environment: ["HOST_ISOLATE": value])
        #expect(output.status == 64)
        #expect(output.stderrLines.first == "host: error: HOST_ISOLATE '\(value)' is not 1 or 0; set HOST_ISOLATE=1 to isolate every plugin, HOST_ISOLATE=0 to isolate none, or unset it")
    }
}
