#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import Testing

@testable import PluginHost
import WorkerProtocol

#if canImport(Glibc)
import Glibc
#endif

@Suite("Frames between host and worker", .timeLimit(.minutes(10)))
struct FrameStreamTests {
    @Test("A frame split into single bytes, and three frames in one read, come out whole and in order")
    func decoderReassembles() throws {
        let frames = try ["a", "bb", "ccc"].map { try Frame.encode($0) }
        var decoder = FrameDecoder()
        var bodies: [[UInt8]] = []
        for byte in frames[0] {
            [byte].withUnsafeBytes { decoder.append($0) }
            if let body = try decoder.next() { bodies.append(body) }
        }
        #expect(bodies == [[0, 0, 0, 1] + Array("a".utf8)])
        frames[1...].joined().map { $0 }.withUnsafeBytes { decoder.append($0) }
        while let body = try decoder.next() { bodies.append(body) }
        #expect(try bodies.map { try Frame.decode(String.self, from: $0) } == ["a", "bb", "ccc"])
        #expect(decoder.pendingCount == 0)
    }

    @Test("A length over 16 MiB is refused from its prefix alone, with the length in the message")
    func decoderRefusesLongFrames() {
        var decoder = FrameDecoder()
        [0x7F, 0, 0, 0].withUnsafeBytes { decoder.append($0) }
        #expect(throws: FrameError.tooLong(0x7F00_0000)) { try decoder.next() }
        #expect(FrameError.tooLong(0x7F00_0000).description == "a frame of 2130706432 bytes, longer than the limit of 16777216")
    }

    @Test("A body that is not a message of the protocol is undecodable, not a crash")
    func undecodableBody() {
        #expect(throws: FrameError.self) { try Frame.decode(HostToWorker.self, from: Array("[1, 2]".utf8)) }
    }

    @Test("300 frames, one of 3 MiB, cross a pipe in order; closing the output ends the other side after the last")
    func framesCrossAPipe() async throws {
        let (near, far) = try Self.connectedPair()
        let received = Mutex<[[UInt8]]>([])
        let ended = Mutex<FrameStream.End?>(nil)
        far.start { body in
            received.withLock { $0.append(body) }
        } onEnd: { end in
            ended.withLock { $0 = end }
        }
        near.start { _ in } onEnd: { _ in }
        let big = String(repeating: "x", count: 3 << 20)
        var sent: [String] = []
        for index in 0..<300 {
            let message = index == 150 ? big : "frame \(index)"
            sent.append(message)
            near.send(try Frame.encode(message))
        }
        near.closeOutput()
        await far.readingEnded()
        let bodies = try received.withLock { $0 }.map { try Frame.decode(String.self, from: $0) }
        #expect(bodies == sent)
        #expect(ended.withLock { $0 } == .closed)
    }

    @Test("A frame too long for the protocol ends the reading side as a violation, and closes it")
    func violationEndsTheStream() async throws {
        let (near, far) = try Self.connectedPair()
        let ended = Mutex<FrameStream.End?>(nil)
        far.start { _ in } onEnd: { end in
            ended.withLock { $0 = end }
        }
        near.start { _ in } onEnd: { _ in }
        near.send([0xFF, 0xFF, 0xFF, 0xFF])
        await far.readingEnded()
        #expect(ended.withLock { $0 } == .violation(.tooLong(0xFFFF_FFFF)))
        // The far side closed both its ends, so the near side reads its end of file.
        await near.readingEnded()
    }

    @Test("A handler that refuses a frame ends the stream with its reason; later frames are not delivered")
    func handlerRefusal() async throws {
        let (near, far) = try Self.connectedPair()
        let delivered = Mutex(0)
        let ended = Mutex<FrameStream.End?>(nil)
        far.start { body throws(FrameError) in
            delivered.withLock { $0 += 1 }
            _ = try Frame.decode(UInt64.self, from: body)
        } onEnd: { end in
            ended.withLock { $0 = end }
        }
        near.start { _ in } onEnd: { _ in }
        near.send(try Frame.encode("not a number") + Frame.encode(UInt64(1)))
        await far.readingEnded()
        #expect(delivered.withLock { $0 } == 1)
        guard case .violation(.undecodable) = ended.withLock({ $0 }) else {
            Issue.record("expected an undecodable frame, got \(String(describing: ended.withLock { $0 }))")
            return
        }
    }

    @Test("Abandoning a stream whose peer never closes ends it, once, as closed")
    func abandonEndsTheStream() async throws {
        let (near, far) = try Self.connectedPair()
        let ends = Mutex<[FrameStream.End]>([])
        far.start { _ in } onEnd: { end in
            ends.withLock { $0.append(end) }
        }
        near.start { _ in } onEnd: { _ in }
        far.abandon()
        far.abandon()
        await far.readingEnded()
        #expect(ends.withLock { $0 } == [.closed])
        // The far side closed its ends, so the near side sees its end of file.
        await near.readingEnded()
    }

    /// Two streams joined by two pipes, as the host and a worker are.
    static func connectedPair() throws -> (FrameStream, FrameStream) {
        var down: [Int32] = [-1, -1]
        var up: [Int32] = [-1, -1]
        guard pipe(&down) == 0, pipe(&up) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        for descriptor in down + up {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return (FrameStream(input: up[0], output: down[1]), FrameStream(input: down[0], output: up[1]))
    }
}
