import Foundation
import Logging
import Synchronization
import Testing

@testable import PluginHost

/// ``HostServices/get(_:timeout:for:)``: the one place a plugin's
/// `http_get` is checked, hop by hop, before any networking runs.
@Suite("http_get checks every hop against the URL policy", .timeLimit(.minutes(10)))
struct HostServicesPolicyTests {
    /// Networking that answers each URL from a script of hops and records
    /// every URL it was asked for.
    final class ScriptedNetworking: HostNetworking {
        private let script: [String: HTTPHop]
        private let log = Mutex<[String]>([])

        init(_ script: [String: HTTPHop]) { self.script = script }

        var requested: [String] { log.withLock { $0 } }

        func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
            guard case .outcome(let outcome) = await hop(url, timeout: timeout) else { return .failure("a redirect") }
            return outcome
        }

        func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
            log.withLock { $0.append(url.absoluteString) }
            return script[url.absoluteString] ?? .outcome(.response(status: 404, body: []))
        }
    }

    /// The warning lines the services log.
    final class Warnings: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var logger: Logger {
            Logger(label: "test") { _ in
                LineLogHandler(logLevel: .warning) { [self] level, message, _ in lines.withLock { $0.append("\(level): \(message)") } }
            }
        }
    }

    static let ok = HTTPHop.outcome(.response(status: 200, body: Array("ok".utf8)))
    static let allowed = "(http://h.test/v2)"

    func services(_ scripted: ScriptedNetworking, _ warnings: Warnings, networking: (any HostNetworking)? = nil) -> HostServices {
        HostServices(
            networking: networking ?? scripted, configuration: ["api_base_url": "http://h.test/v2"],
            urlPolicy: URLPolicy(allowing: [try! URLPrefix("http://h.test/v2")], grantOption: "--allow-url"), logger: warnings.logger)
    }

    @Test("A redirect that stays under the base is followed")
    func redirectWithin() async {
        let networking = ScriptedNetworking(["http://h.test/v2/a": .redirect(status: 302, location: "/v2/b"), "http://h.test/v2/b": Self.ok])
        let warnings = Warnings()
        let outcome = await services(networking, warnings).get("http://h.test/v2/a", timeout: .seconds(1), for: "P")
        #expect(outcome == .response(status: 200, body: Array("ok".utf8)))
        #expect(networking.requested == ["http://h.test/v2/a", "http://h.test/v2/b"])
        #expect(warnings.all.isEmpty)
    }

    @Test("A redirect out of the base is refused before it is followed, and logged naming the plugin", arguments: [
        ("http://evil.test/x", "http://evil.test/x", "http://evil.test/x"),
        ("http://h.test:8080/v2/b", "http://h.test:8080/v2/b", "http://h.test:8080/v2/b"),
        ("../admin", "http://h.test/admin", "http://h.test/admin"),
        ("/v2evil", "http://h.test/v2evil", "http://h.test/v2evil"),
        ("file:///etc/passwd", "file:///etc/passwd", "file:///etc/passwd"),
    ])
    func redirectOut(location: String, resolved: String, grant: String) async {
        let networking = ScriptedNetworking(["http://h.test/v2/a": .redirect(status: 302, location: location)])
        let warnings = Warnings()
        let outcome = await services(networking, warnings).get("http://h.test/v2/a", timeout: .seconds(1), for: "P")
        let refusal =
            "refused http_get of http://h.test/v2/a: it redirects to \(resolved), and it is outside the URLs plugins may fetch \(Self.allowed); to allow it, pass --allow-url \(grant)"
        #expect(outcome == .failure(refusal))
        #expect(networking.requested == ["http://h.test/v2/a"])
        #expect(warnings.all == ["warning: plugin P: \(refusal)"])
    }

    @Test("A URL outside the base is refused before any networking runs")
    func outsideBeforeIO() async {
        let networking = ScriptedNetworking([:])
        let warnings = Warnings()
        let outcome = await services(networking, warnings).get("file:///etc/passwd", timeout: .seconds(1), for: "P")
        let refusal =
            "refused http_get of file:///etc/passwd: it is outside the URLs plugins may fetch \(Self.allowed); to allow it, pass --allow-url file:///etc/passwd"
        #expect(outcome == .failure(refusal))
        #expect(networking.requested.isEmpty)
        #expect(warnings.all == ["warning: plugin P: \(refusal)"])
    }

    @Test("A refusal by the networking itself is logged and answered like a policy refusal")
    func networkingRefusal() async {
        let networking = ScriptedNetworking(["http://h.test/v2/link": .refused("it leads out of /srv, through '..' or a symbolic link")])
        let warnings = Warnings()
        let outcome = await services(networking, warnings).get("http://h.test/v2/link", timeout: .seconds(1), for: "P")
        let refusal = "refused http_get of http://h.test/v2/link: it leads out of /srv, through '..' or a symbolic link"
        #expect(outcome == .failure(refusal))
        #expect(warnings.all == ["warning: plugin P: \(refusal)"])
    }

    @Test("Redirects are followed at most five times")
    func redirectLoop() async {
        let networking = ScriptedNetworking(["http://h.test/v2/a": .redirect(status: 307, location: "/v2/a")])
        let outcome = await services(networking, Warnings()).get("http://h.test/v2/a", timeout: .seconds(1), for: "P")
        #expect(outcome == .failure("http://h.test/v2/a redirected more than 5 times; the last was 307 to /v2/a"))
        #expect(networking.requested.count == 6)
    }

    /// Networking whose every hop takes `pause` (at least: a busy machine
    /// only adds to it) and redirects to the next path, recording the
    /// timeout each hop was given.
    final class SlowRedirects: HostNetworking {
        let pause: Duration
        private let timeouts = Mutex<[Duration]>([])
        init(pause: Duration) { self.pause = pause }

        var given: [Duration] { timeouts.withLock { $0 } }

        func get(_ url: URL, timeout: Duration) async -> HTTPOutcome { .failure("a redirect") }

        func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
            let count = timeouts.withLock { $0.append(timeout); return $0.count }
            try? await Task.sleep(for: pause)
            return count < 4 ? .redirect(status: 302, location: "/v2/\(count)") : HostServicesPolicyTests.ok
        }
    }

    @Test("A redirect chain shares one deadline: each hop gets only what the earlier hops left of the timeout")
    func redirectChainSharesTheDeadline() async {
        // Timing assumption: each hop takes at least `pause` (a sleep never
        // ends early); a loaded machine only makes the time left smaller.
        // The four hops take 0.2 s idle; the timeout is 3000 times that, as
        // a suite run in parallel on a busy machine once took 30 s for two.
        let timeout = Duration.seconds(600)
        let networking = SlowRedirects(pause: .milliseconds(50))
        let outcome = await services(ScriptedNetworking([:]), Warnings(), networking: networking)
            .get("http://h.test/v2/a", timeout: timeout, for: "P")
        #expect(outcome == .response(status: 200, body: Array("ok".utf8)))
        let given = networking.given
        #expect(given.count == 4)
        #expect(given.first == timeout)
        for (hop, given) in given.enumerated().dropFirst() {
            #expect(given <= timeout - networking.pause * hop, "hop \(hop) was given \(given), more than the time left")
        }
    }

    @Test("A redirect chain that outlasts the timeout fails as timed out, though every hop alone fits in it")
    func redirectChainTimesOut() async {
        // Timing assumption: as above; three hops of at least 400 ms cannot
        // fit in 1 s however idle the machine.
        let networking = SlowRedirects(pause: .milliseconds(400))
        let outcome = await services(ScriptedNetworking([:]), Warnings(), networking: networking)
            .get("http://h.test/v2/a", timeout: .seconds(1), for: "P")
        #expect(outcome == .failure("timed out after 1 s"))
        // Two or three hops fit, as load allows; the fourth never starts.
        #expect(networking.given.count <= 3)
    }

    @Test("The default policy is the configured API base")
    func defaultPolicy() async {
        let networking = ScriptedNetworking(["http://h.test/v2/a": Self.ok])
        let services = HostServices(networking: networking, configuration: ["api_base_url": "http://h.test/v2"], logger: Warnings().logger)
        #expect(services.allowedURLs == ["http://h.test/v2"])
        #expect(await services.get("http://h.test/v2/a", timeout: .seconds(1), for: "P") == .response(status: 200, body: Array("ok".utf8)))
        guard case .failure = await services.get("http://h.test/v1", timeout: .seconds(1), for: "P") else {
            Issue.record("a URL outside the default base was fetched")
            return
        }
    }
}
