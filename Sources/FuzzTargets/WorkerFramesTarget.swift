#if DEBUG || FUZZING
import PluginBoundary
import WorkerProtocol
@testable import PluginHost

/// What a worker writes, as the host reads it: the frame stream split by
/// `FrameDecoder`, each body decoded as a `WorkerToHost`, the checks the
/// host makes of what a worker says, and the connection's state machine.
///
/// Input: a byte saying how many bytes arrive per read (1 to 256), then
/// the stream. The worker's plugin can write this stream itself.
let framesFromWorkerTarget = FuzzTarget("frames-from-worker", "FrameDecoder, WorkerToHost decoding, the host's checks and WorkerConnection's state machine; input: read size, then the stream") { input throws(PropertyViolation) in
    let bodies = try frameBodies(&input)
    var connection = Connection()
    for body in bodies {
        guard let message = try? Frame.decode(WorkerToHost.self, from: body) else {
            try connection.apply(connection.machine.protocolViolation("undecodable"))
            break
        }
        try reencodes(message, body)
        try checkAsHost(message)
        try connection.receive(message)
    }
    try connection.apply(connection.machine.exited(.exited(0)))
    try expect(connection.unanswered.isEmpty, "every waiter is answered once the worker is gone", "\(connection.unanswered)")
}

/// What the host writes, as a worker reads it: the frame stream split by
/// `FrameDecoder`, each body decoded as a `HostToWorker`.
///
/// Input: a byte saying how many bytes arrive per read, then the stream.
let framesToWorkerTarget = FuzzTarget("frames-to-worker", "FrameDecoder and HostToWorker decoding; input: read size, then the stream") { input throws(PropertyViolation) in
    for body in try frameBodies(&input) {
        guard let message = try? Frame.decode(HostToWorker.self, from: body) else { break }
        try reencodes(message, body)
    }
}

/// The bodies `FrameDecoder` hands out, fed `input` a few bytes at a time:
/// a stream splits into the same frames however its bytes arrive.
private func frameBodies(_ input: inout FuzzInput) throws(PropertyViolation) -> [[UInt8]] {
    let readSize = Int(input.byte()) + 1
    let stream = Array(input.remaining())
    var decoder = FrameDecoder()
    var bodies: [[UInt8]] = []
    var consumed = 0
    var offset = 0
    reading: while offset < stream.count {
        let end = min(offset + readSize, stream.count)
        stream[offset..<end].withUnsafeBytes { decoder.append($0) }
        offset = end
        while true {
            let next: [UInt8]?
            do {
                next = try decoder.next()
            } catch {
                // A length over the limit ends the stream: the host stops the worker.
                guard case .tooLong(let length) = error, length > Frame.maximumLength else {
                    throw PropertyViolation(property: "a stream is refused only for a frame over the limit", detail: "\(error)")
                }
                break reading
            }
            guard let body = next else { break }
            let length = stream[consumed..<consumed + 4].reduce(0) { $0 << 8 | Int($1) }
            try expect(body.count == length && body.elementsEqual(stream[(consumed + 4)..<(consumed + 4 + length)]), "a frame is the bytes its length prefix says", "frame at byte \(consumed)")
            consumed += 4 + length
            bodies.append(body)
        }
        try expect(decoder.pendingCount == offset - consumed, "the decoder keeps exactly the bytes of the frame not yet whole", "\(decoder.pendingCount) pending after \(offset) bytes, \(consumed) handed out")
    }
    return bodies
}

/// A frame that decodes encodes back to the very same bytes: each message
/// has one encoding.
private func reencodes<Message: FrameCodable>(_ message: Message, _ body: [UInt8]) throws(PropertyViolation) {
    let frame = try? Frame.encode(message)
    try expect(frame.map { Array($0.dropFirst(4)) } == body, "a frame that decodes encodes back to the same bytes", "\(body.count) bytes: \(message)")
}

/// What the host does with each message's content before it believes any
/// of it, and what that leaves.
private func checkAsHost(_ message: WorkerToHost) throws(PropertyViolation) {
    switch message {
    case .sandboxed(let report):
        // What the host shows of it: the words it logs and prints.
        _ = (report.summary, report.refusal, report.machineWarning, report.cost?.description)
    case .loaded(let reply):
        guard let checked = try? reply.checked(for: "/plugins/libFuzz.so") else { return }
        try expect((try? checked.checked(for: "/plugins/libFuzz.so")) == checked, "a checked load reply passes its checks unchanged", "\(checked)")
        if case .registered(_, let registrations) = checked {
            for fetcher in registrations.fetchers {
                try expect((try? PluginOutputRules.symbol(fetcher.symbol)) != nil && fetcher.displayName.utf8.count <= PluginOutputRules.Limit.displayName, "a worker's fetchers pass the in-process rules", "\(fetcher)")
            }
        }
    case .log(let line):
        try expect(PluginOutputRules.logLine(line.message).utf8.count <= PluginOutputRules.Limit.logLine + 64, "a worker's log line is cut at the limit", "\(line.message.utf8.count) bytes")
    case .httpGet(let request):
        let policy = URLPolicy(allowing: (try? URLPrefix("https://api.coinbase.com/v2")).map { [$0] } ?? [])
        if let url = try? policy.check(request.url) {
            try expect(url.host == "api.coinbase.com" && url.segments.first == "v2", "a worker's request is fetched only under the API base", url.text)
        }
    case .fetched(let reply):
        guard case .called(let outcome) = reply.outcome else { return }
        let request = PluginOutputRules.Request(symbol: "BTC", currency: "USD", plugin: PluginIdentity(name: "FuzzPlugin", version: "1", path: "/plugins/libFuzz.so", voucher: .bundled))
        if case .success(let quote) = PluginOutputRules.quote(outcome, for: request) {
            try expect(quote.base == "BTC" && quote.currency == "USD" && matchesDecimalGrammar(quote.amount, digitCap: PluginOutputRules.Limit.amountDigits), "a worker's quote passes the in-process rules", "\(quote)")
        }
    case .refusedSystemCall(let number):
        // A number the host only looks up in its table of names.
        let call = RefusedSystemCall(number: number)
        try expect((call != nil) == (number < 1024), "a refused system call is named only for a number some architecture uses", "\(number)")
        _ = call?.description
    }
}

/// The host's side of one worker connection, driven as the host drives it:
/// it waits for the sandbox, then asks for the load, then for a fetch after
/// each answer.
private struct Connection {
    var machine = WorkerConnection.StateMachine<Int>()
    /// Waiters asked and not yet answered.
    var unanswered: Set<Int> = []
    private var nextWaiter = 0

    init() {
        let waiter = newWaiter()
        // Nothing can have happened yet.
        _ = try? apply(machine.waitForSandbox(waiter))
    }

    mutating func receive(_ message: WorkerToHost) throws(PropertyViolation) {
        switch message {
        case .sandboxed(let report):
            try apply(machine.sandboxReceived(report))
            let waiter = newWaiter()
            try apply(machine.load(LoadRequest(path: "/plugins/libFuzz.so", configuration: [:], defaultTimeoutMilliseconds: 1000, logLevel: .info), waiter: waiter))
        case .loaded(let reply):
            try apply(machine.loadReplyReceived(reply))
            try fetch()
        case .fetched(let reply):
            try apply(machine.fetchReplyReceived(reply))
            try fetch()
        case .log:
            break
        case .httpGet:
            machine.requestStarted()
            machine.requestFinished()
        case .refusedSystemCall:
            break
        }
    }

    private mutating func fetch() throws(PropertyViolation) {
        let waiter = newWaiter()
        try apply(machine.fetch(symbol: "BTC", currency: "USD", timeoutMilliseconds: 1000, waiter: waiter).action)
    }

    private mutating func newWaiter() -> Int {
        nextWaiter += 1
        unanswered.insert(nextWaiter)
        return nextWaiter
    }

    /// Does what the machine says; a waiter answered twice, or one never
    /// asked, breaks the machine's promise.
    mutating func apply(_ action: WorkerConnection.StateMachine<Int>.Action) throws(PropertyViolation) {
        switch action {
        case .none, .send:
            break
        case .resume(let waiter, _):
            try expect(unanswered.remove(waiter) != nil, "a waiter is answered exactly once", "waiter \(waiter)")
        case .fail(let waiters, _, _):
            for waiter in waiters {
                try expect(unanswered.remove(waiter) != nil, "a waiter is answered exactly once", "waiter \(waiter) in a failure")
            }
        }
    }
}
#endif
