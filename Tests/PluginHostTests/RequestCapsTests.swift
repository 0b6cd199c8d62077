import PluginBoundary
@testable import PluginHost
import Testing

/// Each cap on what a plugin asks of the host, at its limit and one past it:
/// the limit itself is allowed, the next is refused.
@Suite("The caps on a plugin's requests, at their limits")
struct RequestCapsTests {
    @Test("8 requests may wait at once; the 9th is refused, and one answered makes room for one more")
    func outstandingAtItsLimit() {
        let allowance = PluginAllowance(name: "P")
        allowance.fetchStarted()
        for number in 1...PluginAllowance.Limit.requestsOutstanding {
            #expect(allowance.startRequest() == nil, "request \(number) of 8 was refused")
        }
        let refusal = allowance.startRequest()
        #expect(refusal?.refusal == AllowanceViolation(.outstanding, plugin: "P", requests: 8, fetches: 1))
        #expect(refusal?.first == true)
        #expect(allowance.startRequest()?.first == false, "the refusal is told once")
        allowance.requestFinished()
        #expect(allowance.startRequest() == nil)
        #expect(allowance.startRequest()?.refusal.cap == .outstanding)
    }

    @Test("A plugin asked for one fetch may make 32 requests (16 a fetch, and 16 more at the start); the 33rd is refused until it is asked again")
    func perFetchAtItsLimit() {
        let allowance = PluginAllowance(name: "P")
        allowance.fetchStarted()
        let limit = PluginAllowance.Limit.requestsPerFetch * 2
        for number in 1...limit {
            #expect(allowance.startRequest() == nil, "request \(number) of \(limit) was refused")
            allowance.requestFinished()
        }
        #expect(allowance.startRequest()?.refusal == AllowanceViolation(.perFetch, plugin: "P", requests: limit, fetches: 1))
        allowance.fetchStarted()
        for _ in 1...PluginAllowance.Limit.requestsPerFetch {
            #expect(allowance.startRequest() == nil)
            allowance.requestFinished()
        }
        #expect(allowance.startRequest()?.refusal == AllowanceViolation(.perFetch, plugin: "P", requests: limit + 16, fetches: 2))
    }

    @Test("1,000 log lines are shown; the 1,001st is dropped and counted")
    func logLinesAtTheirLimit() {
        let allowance = PluginAllowance(name: "P")
        for number in 1...PluginAllowance.Limit.logLines {
            #expect(allowance.admitLogLine(), "log line \(number) of 1,000 was dropped")
        }
        #expect(allowance.droppedLogLinesSummary == nil)
        #expect(!allowance.admitLogLine())
        #expect(allowance.droppedLogLines == 1)
        #expect(allowance.droppedLogLinesSummary == "plugin P: dropped 1 of its log lines, past the 1000 a plugin may write in one run")
    }

    @Test("A plugin's text a host message repeats is whole at 256 bytes, and cut one byte past", arguments: [256, 257])
    func echoAtItsLimit(bytes: Int) {
        let text = String(repeating: "u", count: bytes)
        let echoed = PluginOutputRules.echoed(text)
        #expect(echoed == (bytes <= 256 ? text : String(repeating: "u", count: 256) + "… (cut; 257 bytes in all)"))
    }
}
