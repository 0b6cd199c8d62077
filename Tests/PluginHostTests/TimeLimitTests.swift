import ArgumentParser
@testable import HostCommand
import Testing

/// `--timeout` and `--load-timeout`: one parser, 1 ms to an hour.
@Suite("Time limits on the command line")
struct TimeLimitTests {
    @Test("Seconds from 0.001 to 3600 are taken exactly", arguments: [
        ("0.001", Duration.milliseconds(1)),
        ("0.5", .milliseconds(500)),
        ("2", .seconds(2)),
        ("3600", .seconds(3600)),
        ("1e-3", .milliseconds(1)),
    ])
    func accepted(text: String, duration: Duration) throws {
        let limit = try TimeLimit(parsing: text)
        #expect(limit.duration == duration)
        #expect(limit.description == text)
    }

    @Test("Anything else is refused with the range, never rounded to 0 ms (no limit)", arguments: [
        ("0.0004", "out of range"), ("0.0009999", "out of range"), ("0", "out of range"), ("-1", "out of range"),
        ("3600.001", "out of range"), ("abc", "not a number of seconds"), ("", "not a number of seconds"),
        ("nan", "not a number of seconds"), ("inf", "not a number of seconds"), ("5s", "not a number of seconds"),
    ])
    func refused(text: String, reason: String) {
        let refusal = #expect(throws: TimeLimit.ParseError.self) { try TimeLimit(parsing: text) }
        #expect(refusal?.description == "\(reason); give seconds from 0.001 to 3600, e.g. 5")
    }

    @Test("Both options default to 10 s and parse through TimeLimit")
    func options() throws {
        let defaults = try Fetch.parse(["ETH"])
        #expect(defaults.timeout.duration == .seconds(10))
        #expect(defaults.plugins.loadTimeout.duration == .seconds(10))
        let given = try Fetch.parse(["ETH", "--timeout", "0.001", "--load-timeout", "3600"])
        #expect(given.timeout.duration == .milliseconds(1))
        #expect(given.plugins.loadTimeout.duration == .seconds(3600))
    }

    @Test("End to end: a bad --timeout or --load-timeout is a usage error, exit 64, with one line that says why", arguments: [
        (["--timeout", "0.0004"], "'0.0004' is invalid for '--timeout <seconds>': out of range"),
        (["--timeout", "0"], "'0' is invalid for '--timeout <seconds>': out of range"),
        (["--timeout=-1"], "'-1' is invalid for '--timeout <seconds>': out of range"),
        (["--timeout", "3601"], "'3601' is invalid for '--timeout <seconds>': out of range"),
        (["--timeout", "abc"], "'abc' is invalid for '--timeout <seconds>': not a number of seconds"),
        (["--load-timeout", "0.0004"], "'0.0004' is invalid for '--load-timeout <seconds>': out of range"),
        (["--load-timeout", "3601"], "'3601' is invalid for '--load-timeout <seconds>': out of range"),
    ])
    func badLimitsAreUsageErrors(flags: [String], problem: String) async throws {
        let output = try await CommandRunner.host(["fetch", "ETH"] + flags + ["--api-base-url", HostFixtures.coinbase])
        #expect(output.status == ExitCode.validationFailure.rawValue)
        #expect(output.stderrLines.first == "host: error: The value \(problem); give seconds from 0.001 to 3600, e.g. 5")
        #expect(output.stdout.isEmpty)
    }

    @Test("End to end: `--timeout -1` reads as a missing value, still a usage error")
    func negativeAsSeparateArgument() async throws {
        let output = try await CommandRunner.host(["fetch", "ETH", "--timeout", "-1", "--api-base-url", HostFixtures.coinbase])
        #expect(output.status == ExitCode.validationFailure.rawValue)
        #expect(output.stderrLines.first == "host: error: Missing value for '--timeout <seconds>'")
    }

    @Test("End to end: the longest limits are accepted and the fetch succeeds")
    func longestLimitsAccepted() async throws {
        let output = try await CommandRunner.host(
            ["fetch", "ETH", "--timeout", "3600", "--load-timeout", "3600", "--api-base-url", HostFixtures.coinbase])
        #expect(output.status == ExitCode.success.rawValue, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("SYMBOL"))
    }
}
