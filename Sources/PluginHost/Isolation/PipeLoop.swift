import Dispatch
import Synchronization

import Glibc

/// What the pipe loop moves bytes for: a ``FrameStream``, or a worker's
/// output (``WorkerOutput``). Every method runs on the loop's thread and
/// must not block.
protocol PipeLoopClient: AnyObject, Sendable {
    /// Both descriptors are closed: the loop can forget it.
    var isFinished: Bool { get }
    /// The descriptors to poll: one to read, one to write, either or neither.
    func prepareForPoll() -> (input: Int32?, output: Int32?)
    /// The input is readable, or at its end.
    func readAvailable()
    /// The output takes bytes.
    func flush()
}

/// The one thread that moves every ``FrameStream``'s bytes, and every
/// worker's output, with `poll(2)`.
///
/// Not a Dispatch read source: on Linux, tearing one down can leave
/// libdispatch's epoll bookkeeping pointing at freed memory and crash the
/// process (swift-corelibs-libdispatch#949); ending workers did exactly that
/// within a few runs. A thread of our own in `poll` never registers a
/// descriptor with anyone, and it is the only code that closes the
/// descriptors it watches, so none is reused while it polls.
///
/// The thread starts with the first stream made, waits in `poll` and never ends.
/// Everything it runs, stream handlers included, must not block.
///
/// > Warning: Starting the loop ignores `SIGPIPE` in the whole process, as
/// > SwiftNIO does: a worker that dies leaves a pipe without a reader, and
/// > writing to it must fail with `EPIPE`, not end the host. (A worker puts
/// > the default back: it should die with its host.)
final class PipeLoop: Sendable {
    /// The process's loop; its thread starts on first use.
    static let shared = PipeLoop()

    private let streams = Mutex<[any PipeLoopClient]>([])
    /// A pipe whose read end is in every poll, so adding work can wake it;
    /// -1 when it could not be made, and the loop polls every 5 ms instead.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        _ = signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        let unmanaged = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            // pthread_create passes back the pointer given below, never nil.
            guard let context else { return nil }
            Unmanaged<PipeLoop>.fromOpaque(context).takeRetainedValue().run()
        }, unmanaged.toOpaque())
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had: an overcommit queue gives the loop one of its own.
            DispatchQueue(label: "host.pipes").async { unmanaged.takeRetainedValue().run() }
        }
    }

    /// Watches `stream` until both its descriptors are closed.
    func add(_ stream: any PipeLoopClient) {
        streams.withLock { $0.append(stream) }
        wake()
    }

    /// Makes the loop look again at what every stream wants.
    func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up, so a failed write loses nothing.
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() -> Never {
        var descriptors: [pollfd] = []
        var owners: [(stream: any PipeLoopClient, reading: Bool)] = []
        while true {
            descriptors.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            if wakeRead >= 0 {
                descriptors.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            }
            let current = streams.withLock { streams in
                streams.removeAll { $0.isFinished }
                return streams
            }
            for stream in current {
                let interest = stream.prepareForPoll()
                if let input = interest.input {
                    descriptors.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0))
                    owners.append((stream, true))
                }
                if let output = interest.output {
                    descriptors.append(pollfd(fd: output, events: Int16(POLLOUT), revents: 0))
                    owners.append((stream, false))
                }
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), wakeRead >= 0 ? -1 : 5)
            if ready < 0 && errno != EINTR {
                // Out of memory for the poll set, say: try again, without spinning.
                usleep(1000)
            }
            guard ready > 0 else { continue }
            let first = wakeRead >= 0 ? 1 : 0
            if first == 1 && descriptors[0].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
            }
            for (index, owner) in owners.enumerated() where descriptors[first + index].revents != 0 {
                if owner.reading {
                    owner.stream.readAvailable()
                } else {
                    owner.stream.flush()
                }
            }
        }
    }
}
