import Synchronization
import WorkerProtocol

import Glibc

/// Frames in both directions over a pair of pipe descriptors, moved by the
/// ``PipeLoop`` thread, so no other thread ever waits on a pipe.
///
/// Each whole frame read goes to `onFrame`, in order; the end of the stream,
/// or the first bad frame, goes once to `onEnd`. Both run on the loop's
/// thread and must not block. ``send(_:)`` may be called from any thread:
/// it writes what the pipe takes at once and leaves the rest to the loop.
///
/// The stream owns both descriptors. The input is closed when reading ends;
/// the output when ``closeOutput()`` has flushed it, or when reading ends.
final class FrameStream: PipeLoopClient {
    /// How reading ended.
    enum End: Sendable, Equatable {
        /// The other side closed its end, exited or was killed.
        case closed
        /// The other side sent something that is not a frame of the protocol.
        case violation(FrameError)
    }

    /// Takes one frame's body. Throwing ends the stream as a violation.
    typealias FrameHandler = @Sendable ([UInt8]) throws(FrameError) -> Void
    typealias EndHandler = @Sendable (End) -> Void

    private static let readSize = 64 << 10
    private static let readsPerTurn = 4

    private let loop: PipeLoop
    private let state: Mutex<State>

    private struct State {
        /// -1 once closed.
        var input: Int32
        /// -1 once closed.
        var output: Int32
        var decoder = FrameDecoder()
        /// Bytes queued for the output, from `sent` on.
        var outbox: [UInt8] = []
        var sent = 0
        var closeOutputWhenFlushed = false
        var abandoned = false
        var onFrame: FrameHandler?
        var onEnd: EndHandler?
        var end: End?
        var endWaiters: [CheckedContinuation<Void, Never>] = []

        var hasUnsent: Bool { sent < outbox.count }

        /// Writes queued bytes until the pipe is full. A reader that is gone
        /// drops them all: its end shows up on the reading side.
        mutating func writeOutbox() {
            while output >= 0 && hasUnsent {
                var failure: Int32 = 0
                let written = outbox.withUnsafeBytes { bytes in
                    let written = write(output, bytes.baseAddress! + sent, bytes.count - sent)
                    failure = errno
                    return written
                }
                if written > 0 {
                    sent += written
                } else if written < 0 && failure == EINTR {
                    continue
                } else if written < 0 && (failure == EAGAIN || failure == EWOULDBLOCK) {
                    break
                } else {
                    outbox = []
                    sent = 0
                    closeOutputWhenFlushed = true
                }
            }
            if !hasUnsent {
                outbox.removeAll(keepingCapacity: outbox.capacity <= 1 << 20)
                sent = 0
            } else if sent >= 1 << 16 && sent >= outbox.count / 2 {
                // A reader that lags must not make the written bytes pile up.
                outbox.removeFirst(sent)
                sent = 0
            }
        }

        /// Closes the output once ``closeOutputWhenFlushed`` is set and nothing waits to be written.
        mutating func closeOutputIfFlushed() {
            if closeOutputWhenFlushed && !hasUnsent {
                closeOutput()
            }
        }

        mutating func closeOutput() {
            if output >= 0 { close(output) }
            output = -1
            outbox = []
            sent = 0
        }
    }

    /// Takes ownership of `input` (frames to read) and `output` (frames to
    /// write) and makes both non-blocking. Nothing is read until ``start(onFrame:onEnd:)``.
    init(input: Int32, output: Int32, loop: PipeLoop = .shared) {
        for descriptor in [input, output] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        self.loop = loop
        state = Mutex(State(input: input, output: output))
    }

    /// Starts reading. `onFrame` gets every frame's body in order; `onEnd`
    /// is called once, after the last frame.
    func start(onFrame: @escaping FrameHandler, onEnd: @escaping EndHandler) {
        state.withLock { state in
            state.onFrame = onFrame
            state.onEnd = onEnd
        }
        loop.add(self)
    }

    /// Queues a frame (``Frame/encode(_:)``) after those already queued.
    ///
    /// A frame sent after ``closeOutput()``, or to a side that is gone, is
    /// dropped: that side's end shows up on the reading side.
    func send(_ frame: [UInt8]) {
        let waiting = state.withLock { state in
            guard state.output >= 0 && !state.closeOutputWhenFlushed else { return false }
            state.outbox.append(contentsOf: frame)
            state.writeOutbox()
            return state.hasUnsent
        }
        if waiting { loop.wake() }
    }

    /// Closes the output once the frames already queued are written: the
    /// other side reads them, then its end of file.
    func closeOutput() {
        state.withLock { $0.closeOutputWhenFlushed = true }
        loop.wake()
    }

    /// Ends the stream as if the other side had closed it, on the loop's
    /// next turn: for a peer that is gone while a process it started still
    /// holds its end of the pipe open.
    func abandon() {
        state.withLock { $0.abandoned = true }
        loop.wake()
    }

    /// Returns once reading has ended, at once if it already has.
    func readingEnded() async {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                guard state.end == nil else { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    // MARK: On the loop's thread

    /// Both descriptors are closed: the loop can forget this stream.
    var isFinished: Bool {
        state.withLock { $0.input < 0 && $0.output < 0 }
    }

    /// What to poll for: the input while reading, the output while bytes
    /// wait. Closes an output whose last bytes are written.
    func prepareForPoll() -> (input: Int32?, output: Int32?) {
        let (interest, abandoned) = state.withLock { state in
            state.closeOutputIfFlushed()
            let reading = state.onFrame != nil && state.input >= 0
            return ((reading ? state.input : nil, state.hasUnsent ? state.output : nil), state.abandoned && reading)
        }
        if abandoned {
            finish(.closed)
            return (nil, nil)
        }
        return interest
    }

    /// Writes what the output now takes.
    func flush() {
        state.withLock { state in
            state.writeOutbox()
            state.closeOutputIfFlushed()
        }
    }

    /// Reads what the input has, up to ``readsPerTurn`` reads, and hands on
    /// the frames it completes. The limit keeps one busy worker from starving
    /// the others: the loop polls again, and reads the rest on its next turn.
    func readAvailable() {
        let input = state.withLock { $0.input }
        guard input >= 0 else { return }
        var end: End?
        reading: for _ in 0..<Self.readsPerTurn {
            var result = 0
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: Self.readSize) { buffer, count in
                result = read(input, buffer.baseAddress, buffer.count)
                failure = errno
                count = max(result, 0)
            }
            if result == 0 {
                end = .closed
                break
            }
            if result < 0 {
                switch failure {
                case EINTR: continue reading
                case EAGAIN, EWOULDBLOCK: break reading
                // A pipe that cannot be read will never deliver the rest.
                default: end = .closed
                }
                break
            }
            if let violation = deliver(bytes) {
                end = .violation(violation)
                break
            }
            // A short read emptied the pipe; poll says when there is more.
            if result < Self.readSize { break }
        }
        if let end { finish(end) }
    }

    /// Decodes `bytes` and passes on each whole frame, stopping at the first bad one.
    private func deliver(_ bytes: [UInt8]) -> FrameError? {
        let (handler, frames, failure) = state.withLock { state -> (FrameHandler?, [[UInt8]], FrameError?) in
            bytes.withUnsafeBytes { state.decoder.append($0) }
            var frames: [[UInt8]] = []
            do throws(FrameError) {
                while let body = try state.decoder.next() { frames.append(body) }
                return (state.onFrame, frames, nil)
            } catch {
                return (state.onFrame, frames, error)
            }
        }
        guard let handler else { return failure }
        do throws(FrameError) {
            for frame in frames { try handler(frame) }
        } catch {
            return error
        }
        return failure
    }

    /// Closes both descriptors and reports `end`, once.
    private func finish(_ end: End) {
        let (onEnd, waiters) = state.withLock { state -> (EndHandler?, [CheckedContinuation<Void, Never>]) in
            guard state.end == nil else { return (nil, []) }
            state.end = end
            close(state.input)
            state.input = -1
            // What the pipe still takes goes out first: a worker that exits
            // at its host's end of file must not lose its last log line.
            state.writeOutbox()
            state.closeOutput()
            // Dropping the handlers breaks the cycle through whoever owns the stream.
            defer {
                state.onFrame = nil
                state.onEnd = nil
                state.endWaiters = []
            }
            return (state.onEnd, state.endWaiters)
        }
        onEnd?(end)
        waiters.forEach { $0.resume() }
    }
}
