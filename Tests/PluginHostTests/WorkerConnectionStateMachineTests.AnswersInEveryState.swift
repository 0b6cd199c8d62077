import PluginBoundary
@testable import PluginHost
import Testing
import WorkerProtocol

/// A worker's answer in every state of its connection: a fetch answer is
/// taken only while serving the fetch it answers, so one that comes while
/// the plugin still loads (or before) is the plugin writing frames.
extension WorkerConnectionStateMachineTests {
    /// Each state, by name, with who waits in it.
    static let states: [String] = ["starting", "starting, awaited", "confined", "loading", "serving", "closed", "failed"]

    /// A machine in the state named `state`.
    static func machine(in state: String) -> Machine {
        var machine = Machine()
        switch state {
        case "starting": break
        case "starting, awaited": _ = machine.waitForSandbox("sandbox")
        case "confined": _ = machine.sandboxReceived(sandbox)
        case "loading":
            _ = machine.sandboxReceived(sandbox)
            _ = machine.load(request, waiter: "load")
        case "serving": machine = serving()
        case "closed":
            machine = serving()
            _ = machine.close()
        default:
            machine = serving()
            _ = machine.exited(.signal(9))
        }
        return machine
    }

    /// A violation that answers `waiters` and stops the worker.
    static func violation(_ detail: String, _ phase: WorkerError.Phase, _ waiters: [String]) -> Machine.Action {
        .fail(waiters, WorkerError(phase, .protocolViolation(detail)), stop: true)
    }

    /// What a fetch answer does in `state`.
    static func fetchAnswerOutcome(in state: String) -> Machine.Action {
        let detail = "it answered fetch 1, which the host never asked for"
        switch state {
        case "starting", "confined": return violation(detail, .loading, [])
        case "starting, awaited": return violation(detail, .loading, ["sandbox"])
        case "loading": return violation(detail, .loading, ["load"])
        case "serving": return violation(detail, .fetching, [])
        default: return .none
        }
    }

    /// What a load report does in `state`.
    static func loadReportOutcome(in state: String) -> Machine.Action {
        let detail = "it sent a load report nobody asked for"
        switch state {
        case "starting", "confined": return violation(detail, .loading, [])
        case "starting, awaited": return violation(detail, .loading, ["sandbox"])
        case "loading": return .resume("load", .loaded(reply))
        case "serving": return violation(detail, .fetching, [])
        default: return .none
        }
    }

    @Test("A fetch answer in every state: refused as never asked for until the plugin has loaded, ignored once the connection has ended", arguments: states)
    func fetchAnswerInEveryState(state: String) {
        var machine = Self.machine(in: state)
        #expect(machine.fetchReplyReceived(FetchReply(id: 1, outcome: .noSuchFetcher)) == Self.fetchAnswerOutcome(in: state))
    }

    @Test("A load report in every state: taken only while loading", arguments: states)
    func loadReportInEveryState(state: String) {
        var machine = Self.machine(in: state)
        #expect(machine.loadReplyReceived(Self.reply) == Self.loadReportOutcome(in: state))
    }

    @Test("After an answer refused while loading, the load waits no more and every later request fails at once")
    func answerWhileLoadingEndsTheWorker() {
        var machine = Self.machine(in: "loading")
        let failure = WorkerError(.loading, .protocolViolation("it answered fetch 1, which the host never asked for"))
        #expect(machine.fetchReplyReceived(FetchReply(id: 1, outcome: .called(.malformed))) == .fail(["load"], failure, stop: true))
        #expect(machine.loadReplyReceived(Self.reply) == .none)
        #expect(machine.fetch(symbol: "ETH", currency: "USD", timeoutMilliseconds: 500, waiter: "fetch").action == .resume("fetch", .failed(failure)))
    }
}
