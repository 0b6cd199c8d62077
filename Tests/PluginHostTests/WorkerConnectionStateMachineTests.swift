import PluginBoundary
@testable import PluginHost
import Testing
import WorkerProtocol

/// Every transition of a worker connection's life, as a value: no pipes, no
/// processes. Waiters are names, so each assertion says who is answered with what.
@Suite("A worker connection's life")
struct WorkerConnectionStateMachineTests {
    typealias Machine = WorkerConnection.StateMachine<String>

    static let sandbox = SandboxReport(level: .full, missing: [])
    static let request = LoadRequest(path: "/p/x.so", configuration: [:], defaultTimeoutMilliseconds: 10_000, logLevel: .warning)
    static let reply = LoadReply.refused(.missingEntryPoint)

    /// A machine whose plugin loaded, serving fetches.
    static func serving() -> Machine {
        var machine = Machine()
        _ = machine.sandboxReceived(sandbox)
        _ = machine.load(request, waiter: "load")
        _ = machine.loadReplyReceived(reply)
        return machine
    }

    @Test("Sandbox, load, fetch and answer, in order")
    func happyPath() {
        var machine = Machine()
        #expect(machine.waitForSandbox("sandbox") == .none)
        #expect(machine.sandboxReceived(Self.sandbox) == .resume("sandbox", .sandboxed(Self.sandbox)))
        #expect(machine.load(Self.request, waiter: "load") == .send(.load(Self.request)))
        #expect(machine.loadReplyReceived(Self.reply) == .resume("load", .loaded(Self.reply)))
        let (id, action) = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch")
        #expect(id == 1)
        #expect(action == .send(.fetch(FetchRequest(id: 1, symbol: "ETH", currency: "USD", timeoutMilliseconds: 500))))
        let answer = FetchReply.Outcome.called(.malformed)
        #expect(machine.fetchReplyReceived(FetchReply(id: 1, outcome: answer)) == .resume("fetch", .fetched(answer)))
    }

    @Test("A sandbox reported before anyone asks is kept for whoever asks")
    func sandboxBeforeTheQuestion() {
        var machine = Machine()
        #expect(machine.sandboxReceived(Self.sandbox) == .none)
        #expect(machine.waitForSandbox("late") == .resume("late", .sandboxed(Self.sandbox)))
    }

    @Test("A second sandbox report is the plugin writing frames: the worker is stopped")
    func sandboxTwice() {
        var machine = Self.serving()
        let (_, _) = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch")
        let failure = WorkerError(.fetching, .protocolViolation("it reported its sandbox twice"))
        #expect(machine.sandboxReceived(Self.sandbox) == .fail(["fetch"], failure, stop: true))
    }

    @Test("A load report nobody asked for is a violation, before a load and after one")
    func unaskedLoadReport() {
        var early = Machine()
        _ = early.sandboxReceived(Self.sandbox)
        #expect(early.loadReplyReceived(Self.reply) == .fail([], WorkerError(.loading, .protocolViolation("it sent a load report nobody asked for")), stop: true))
        var late = Self.serving()
        #expect(late.loadReplyReceived(Self.reply) == .fail([], WorkerError(.fetching, .protocolViolation("it sent a load report nobody asked for")), stop: true))
    }

    @Test("An answer after a failure changes nothing and answers no one twice")
    func answerAfterFailure() {
        var machine = Self.serving()
        _ = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch")
        let failure = WorkerError(.fetching, .signal(11))
        #expect(machine.exited(.signal(11)) == .fail(["fetch"], failure, stop: false))
        #expect(machine.fetchReplyReceived(FetchReply(id: 1, outcome: .noSuchFetcher)) == .none)
        #expect(machine.loadReplyReceived(Self.reply) == .none)
        #expect(machine.sandboxReceived(Self.sandbox) == .none)
        // Later requests get the same failure at once.
        #expect(machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "next").action == .resume("next", .failed(failure)))
    }

    @Test("An answer after its fetch timed out is ignored; an answer to a fetch never asked for is a violation")
    func lateAndUnaskedAnswers() {
        var machine = Self.serving()
        _ = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch")
        #expect(machine.fetchTimedOut(1) == .resume("fetch", .timedOut(waitingOnNetwork: false)))
        #expect(machine.fetchTimedOut(1) == .none)
        #expect(machine.fetchReplyReceived(FetchReply(id: 1, outcome: .noSuchFetcher)) == .none)
        #expect(
            machine.fetchReplyReceived(FetchReply(id: 7, outcome: .noSuchFetcher))
                == .fail([], WorkerError(.fetching, .protocolViolation("it answered fetch 7, which the host never asked for")), stop: true))
    }

    @Test("A timeout blames the network while the plugin waits on an http_get, and the plugin otherwise")
    func timeoutBlame() {
        var machine = Self.serving()
        machine.requestStarted()
        _ = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "waiting")
        #expect(machine.fetchTimedOut(1) == .resume("waiting", .timedOut(waitingOnNetwork: true)))
        machine.requestFinished()
        _ = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "stuck")
        #expect(machine.fetchTimedOut(2) == .resume("stuck", .timedOut(waitingOnNetwork: false)))
    }

    @Test("A close during a load answers the load with a plain failure; the exit that follows changes nothing")
    func closeDuringLoad() {
        var machine = Machine()
        _ = machine.sandboxReceived(Self.sandbox)
        _ = machine.load(Self.request, waiter: "load")
        #expect(machine.close() == .fail(["load"], WorkerError(.loading, .exited(0)), stop: false))
        #expect(machine.exited(.signal(9)) == .none)
        #expect(machine.loadReplyReceived(Self.reply) == .none)
        #expect(machine.close() == .none)
    }

    @Test("Two failures at once: the first explains the end, the second changes nothing")
    func twoFailures() {
        var machine = Machine()
        #expect(machine.waitForSandbox("sandbox") == .none)
        let hung = WorkerError(.loading, .hung(after: .seconds(1)))
        #expect(machine.timedOut(after: .seconds(1)) == .fail(["sandbox"], hung, stop: true))
        #expect(machine.exited(.signal(9)) == .none)
        #expect(machine.protocolViolation("late") == .none)
        #expect(machine.waitForSandbox("again") == .resume("again", .failed(hung)))
    }

    @Test("A failure names the plugin once the host has identified it")
    func identifiedFailure() {
        var machine = Self.serving()
        machine.identify(as: "EthereumPlugin")
        _ = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch")
        #expect(machine.exited(.exited(3)) == .fail(["fetch"], WorkerError(.fetching, .exited(3), plugin: "EthereumPlugin"), stop: false))
    }

    @Test("Requests out of turn are answered at once, never left waiting")
    func requestsOutOfTurn() {
        var machine = Machine()
        #expect(machine.load(Self.request, waiter: "early") == .resume("early", .failed(WorkerError(.loading, .exited(0)))))
        #expect(machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch").action == .resume("fetch", .failed(WorkerError(.loading, .exited(0)))))
        _ = machine.waitForSandbox("first")
        #expect(machine.waitForSandbox("second") == .resume("second", .failed(WorkerError(.loading, .exited(0)))))
    }

    @Test("Closing a serving worker answers every fetch still waiting, in the order asked")
    func closeWhileServing() {
        var machine = Self.serving()
        for name in ["a", "b", "c"] { _ = machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: name) }
        #expect(machine.close() == .fail(["a", "b", "c"], WorkerError(.fetching, .exited(0)), stop: false))
        #expect(machine.fetchReplyReceived(FetchReply(id: 2, outcome: .noSuchFetcher)) == .none)
    }
}
