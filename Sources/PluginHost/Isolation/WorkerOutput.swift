import PluginBoundary
import Synchronization

import Glibc

/// What a worker writes to its stdout and stderr, one line at a time.
///
/// A worker's descriptors 1 and 2 are one pipe the host reads here, on the
/// ``PipeLoop`` thread, never the host's own terminal or log file: a plugin's
/// `printf` cannot reach the user's terminal (no `TIOCSTI`, no escape
/// sequences), nor truncate or fill the file the host's stderr is redirected
/// to. Each line goes to `onLine`, cut like a log line
/// (``PluginOutputRules/Limit/logLine``), for the host to log as the plugin's,
/// escaped and counted against its log lines.
final class WorkerOutput: PipeLoopClient {
    /// Takes one line, without its newline.
    typealias LineHandler = @Sendable (String) -> Void

    private static let readSize = 16 << 10
    private static let readsPerTurn = 4

    private let loop: PipeLoop
    private let state: Mutex<State>

    private struct State {
        /// -1 once closed.
        var input: Int32
        /// The line so far: at most one byte past the limit, so a longer one reads as cut.
        var line: [UInt8] = []
        /// The line is past the limit: the rest of it is dropped.
        var overlong = false
        var onLine: LineHandler?
        var ended = false
        var abandoned = false
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Takes ownership of `input`, the host's end of the worker's output
    /// pipe, and starts reading it.
    init(input: Int32, loop: PipeLoop = .shared, onLine: @escaping LineHandler) {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        self.loop = loop
        state = Mutex(State(input: input, onLine: onLine))
        loop.add(self)
    }

    /// Returns once the worker and everything that held its output have
    /// closed it, or it was abandoned; at once if that has happened.
    func readingEnded() async {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                guard !state.ended else { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// Stops reading on the loop's next turn, passing on the last partial
    /// line: for a worker that is gone while something it started still
    /// holds the pipe (possible only without its PID namespace).
    func abandon() {
        state.withLock { $0.abandoned = true }
        loop.wake()
    }

    // MARK: On the loop's thread

    var isFinished: Bool { state.withLock { $0.input < 0 } }

    func prepareForPoll() -> (input: Int32?, output: Int32?) {
        let (input, abandoned) = state.withLock { ($0.input, $0.abandoned) }
        if abandoned {
            finish()
            return (nil, nil)
        }
        return (input >= 0 ? input : nil, nil)
    }

    func flush() {}

    func readAvailable() {
        let input = state.withLock { $0.input }
        guard input >= 0 else { return }
        for _ in 0..<Self.readsPerTurn {
            var result = 0
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: Self.readSize) { buffer, count in
                result = read(input, buffer.baseAddress, buffer.count)
                failure = errno
                count = max(result, 0)
            }
            if result < 0 && failure == EINTR { continue }
            if result < 0 && (failure == EAGAIN || failure == EWOULDBLOCK) { return }
            guard result > 0 else { return finish() }
            deliver(bytes)
            if result < Self.readSize { return }
        }
    }

    /// Splits `bytes` into lines and hands on the whole ones.
    private func deliver(_ bytes: [UInt8]) {
        let limit = PluginOutputRules.Limit.logLine
        let (handler, lines) = state.withLock { state -> (LineHandler?, [String]) in
            var lines: [String] = []
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    lines.append(Self.text(of: state.line))
                    state.line.removeAll(keepingCapacity: true)
                    state.overlong = false
                } else if !state.overlong {
                    state.line.append(byte)
                    state.overlong = state.line.count > limit
                }
            }
            return (state.onLine, lines)
        }
        if let handler { lines.forEach(handler) }
    }

    /// A line as a log line: invalid UTF-8 repaired, cut at the limit.
    private static func text(of line: [UInt8]) -> String {
        let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
        return PluginOutputRules.logLine(String(decoding: trimmed, as: UTF8.self))
    }

    /// Closes the pipe, passes on a last line without its newline, and wakes whoever waits.
    private func finish() {
        let (handler, last, waiters) = state.withLock { state -> (LineHandler?, String?, [CheckedContinuation<Void, Never>]) in
            guard !state.ended else { return (nil, nil, []) }
            state.ended = true
            if state.input >= 0 { close(state.input) }
            state.input = -1
            let last = state.line.isEmpty ? nil : Self.text(of: state.line)
            defer {
                state.onLine = nil
                state.endWaiters = []
            }
            return (state.onLine, last, state.endWaiters)
        }
        if let handler, let last { handler(last) }
        waiters.forEach { $0.resume() }
    }
}
