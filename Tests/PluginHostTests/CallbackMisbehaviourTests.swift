import Foundation
@testable import HostCommand
import PluginHost
import Testing

/// Plugins whose completion callback comes never, twice, or after the
/// timeout. In-process, the host hands out numeric tokens, never pointers,
/// as `completion_context`, so a stray call finds no waiter and is ignored;
/// in a sandboxed worker, where an unvouched plugin runs, the worker does the same. Either way the host neither
/// crashes nor waits past `--timeout`.
@Suite("Completion callbacks that misbehave", .timeLimit(.minutes(10)))
struct CallbackMisbehaviourTests {
    static let modes = CommandRunner.fixturePlacements

    func fetch(_ symbol: String, _ variant: FixturePlugins.Variant, _ flags: [String]) async throws -> (CommandRunner.Output, Duration) {
        let directory = try await FixturePlugins.directory(with: [variant], bundled: ["Ethereum"])
        // Every run here ends within a second or two idle; a host whose fetch
        // timeout never fires fails at this deadline rather than the default five minutes.
        let output = try await CommandRunner.host(
            ["fetch", symbol, "ETH", "--plugins-dir", directory.path, "--api-base-url", HostFixtures.coinbase] + flags, deadline: .seconds(120))
        return (output, output.elapsed)
    }

    @Test("A plugin that never calls back times out at --timeout", arguments: modes)
    func neverCallsBack(flags: [String]) async throws {
        let (output, elapsed) = try await fetch("NEVER", .neverCallsBack, ["--timeout", "0.5"] + flags)
        #expect(output.status == 1)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.unlabelled.stderrLines == ["host: error: NEVER: SilentPlugin never answered within 500 ms, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow"])
        // Timing assumption: a 0.5 s timeout ends the run well within 60 s, however busy the machine.
        #expect(elapsed < .seconds(60))
    }

    @Test("A second call is ignored and logged; the first answer stands", arguments: modes)
    func callsBackTwice(flags: [String]) async throws {
        let (output, _) = try await fetch("TWICE", .callsBackTwice, flags)
        #expect(output.status == 0)
        #expect(output.stdout.contains("TWICE   USD       1.00                        TwicePlugin"), "\(output.stdout)")
        #expect(!output.stdout.contains("666"))
        // A worker's log lines are attributed to its plugin, whoever wrote them.
        let source = flags.isEmpty ? "[TwicePlugin] " : ""
        #expect(output.unlabelled.stderrLines == [
            "host: \(source)warning: ignored a fetch callback from TwicePlugin that came after the fetch had already finished (a second call or a call after the timeout)"
        ])
    }

    @Test("A call after the timeout does not keep the host waiting or crash it on the way out", arguments: modes)
    func callsBackLate(flags: [String]) async throws {
        let (output, elapsed) = try await fetch("LATE", .callsBackLate, ["--timeout", "0.3"] + flags)
        #expect(output.status == 1)
        #expect(output.stdout.contains(HostFixtures.ethRow))
        #expect(output.unlabelled.stderrLines == ["host: error: LATE: LatePlugin never answered within 300 ms, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow"])
        // Timing assumption: a 0.5 s timeout ends the run well within 60 s, however busy the machine.
        #expect(elapsed < .seconds(60))
    }

    @Test("In-process, late and second calls that arrive while the host runs change nothing later")
    func strayCallsInProcess() async throws {
        for variant in FixturePlugins.Variant.allCases { _ = try await FixturePlugins.library(variant) }
        let networking = SimulatedNetworking(["/v2/prices/DOGE-USD/spot": SimulatedNetworking.spot("DOGE", "USD", "0.5")])
        var files: [String] = []
        for variant in [FixturePlugins.Variant.callsBackLate, .callsBackTwice, .cPlugin] {
            files.append(try await FixturePlugins.privateCopy(of: variant).path)
        }
        let log = LogLines()
        let registry = FetcherRegistry(PluginLoader(services: .simulated(networking, logger: log.logger())).load(files).fetchers)
        // Nobody vouched for it: its lines name its file too.
        let lateLine = "LatePlugin (unvouched, \(files[0])): answered late"

        // NB: other suites run blocking helpers (clang, sha256sum) on the
        // cooperative pool while this runs, which can hold back the host's
        // 100 ms timer past the plugin's answer 5.1 s later; that answer then
        // legitimately wins. So: several rounds, each either a timeout or
        // that answer, and at least one round a real timeout followed by the
        // late call, which must be ignored.
        var timeouts = 0
        for round in 1...4 {
            let late = try await Deadline.within(.seconds(120), "LATE's price, round \(round)") {
                try await registry.fetcher(for: "LATE").price(in: "USD", timeout: .milliseconds(100))
            }
            switch late {
            case .failure(let error):
                #expect(error.message(naming: .host).replacing(#/ \(unvouched, [^)]*\)/#, with: "") == "LatePlugin never answered within 100 ms, and had no request to the network outstanding; the plugin is stuck or lost its completion: ask its author for a fix, or raise --timeout if it is only slow", "round \(round)")
                timeouts += 1
            case .success(let quote):
                #expect(quote.amount == "2.00", "round \(round)")
            }
            // The late answer comes 5 s after the timeout, finds its token
            // finished, and is ignored; the plugin logs this line once the
            // host has handled it, so the fetches below come after it.
            try await Deadline.within(.seconds(120), "LATE's late answer, round \(round)") {
                await log.wait(for: lateLine, count: round)
            }
            let twice = try await Deadline.within(.seconds(120), "TWICE's price, round \(round)") {
                try await registry.fetcher(for: "TWICE").price(in: "USD", timeout: .seconds(60))
            }.get()
            let doge = try await Deadline.within(.seconds(120), "DOGE's price, round \(round)") {
                try await registry.fetcher(for: "DOGE").price(in: "USD", timeout: .seconds(60))
            }.get()
            #expect(twice.amount == "1.00")
            #expect(doge.amount == "0.5")
            if timeouts >= 2 { break }
        }
        #expect(timeouts >= 1)
    }
}
