import PluginBoundary
import Testing
import WorkerProtocol

/// The bytes of every kind of frame, pinned: a change to how frames are
/// declared must leave the wire exactly as it is, tag for tag and byte for
/// byte (a worker and a host of different builds never meet, but the fuzz
/// corpus and every test's forged frames assume these bytes).
@Suite("The bytes of every frame")
struct FrameBytesTests {
    /// The cases ``FrameCodecTests`` does not send: the third sandbox level,
    /// every log level, a refused system call.
    static let moreWorkerMessages: [WorkerToHost] = [
        .sandboxed(SandboxReport(level: .none, missing: [.init(layer: "seccomp", reason: "r"), .init(layer: "rlimits", reason: "")])),
        .log(LogFrame(level: .debug, message: "d")),
        .log(LogFrame(level: .info, message: "é")),
        .log(LogFrame(level: .warning, message: "w")),
        .refusedSystemCall(59),
    ]

    /// Each message of ``FrameCodecTests/workerMessages``, then of
    /// ``moreWorkerMessages``: its whole frame, length prefix first, in hex.
    static let workerFrames = [
        "0000000701010000000000",
        "00000051010200000001000000084c616e646c6f636b0000001a746865206b65726e656c20686173206e6f204c616e646c6f636b014044c000000000007ff800000000000080000000000000007ff0000000000000",
        "0000009802010000000e457468657265756d506c7567696e00000005312e302e3000000001000000500100000001640001000000034d4954010000000168010000001068747470733a2f2f6170692e7465737400000002000000034554480000000d45746865720065756d20e29c93000001000000000342544300000000ffffffff0000000100000003455448000000022f70000000010000000172",
        "0000005402020000000e457468657265756d506c7567696e00000005312e302e3000000001000000500100000001640001000000034d4954010000000168010000001068747470733a2f2f6170692e74657374fffffffd00",
        "0000006402020000000e457468657265756d506c7567696e00000005312e302e3000000001000000500100000001640001000000034d4954010000000168010000001068747470733a2f2f6170692e7465737400000002010000000c63616e6e6f74207374617274",
        "0000001c020301000000156974206973206e6f7420616e20454c462066696c65",
        "00000003020302",
        "00000003020303",
        "00000007020304deadbeef",
        "0000000702030500000063",
        "0000000702030600000004",
        "0000000b020307000000046e616d65",
        "000000290203080000000c646973706c6179206e616d65000000126973206e6f742076616c6964205554462d38",
        "00000006030300000000",
        "0000002c04ffffffffffffffff0000001b68747470733a2f2f6170692e636f696e626173652e636f6d2f7632ffffffff",
        "0000001d05000000000000000101010100000003455448000100000003312e3500",
        "00000030050000000000000002010200000006616d6f756e74000000176973206c6f6e676572207468616e203432206279746573",
        "0000000b0500000000000000030103",
        "0000000a05000000000000000402",
        "0000000e050000000000000005030000000b",
        "0000002601030000000200000007736563636f6d70000000017200000007726c696d6974730000000000",
        "0000000703000000000164",
        "00000008030100000002c3a9",
        "0000000703020000000177",
        "00000005060000003b",
    ]

    /// Each message of ``FrameCodecTests/hostMessages``: its whole frame in hex.
    static let hostFrames = [
        "0000005301000000072f702f782e736f000000030000000000000000000000016100000001310000000162000000013200000000000000001868747470733a2f2f6170692e636f696e626173652e636f6d000027100100",
        "0000007101000000072f702f792e736f000000000000000200000001410000000e68747470733a2f2f612e7465737400000001420000000966696c653a2f2f2f62010000000d687474703a2f2f652e746573740000001868747470733a2f2f6170692e636f696e626173652e636f6d000000010103",
        "0000001b020000000000000009000000034554480000000355534400000000",
        "0000001903000000000000000301ffffffffffffffff0000000300ff0a",
        "00000021030000000000000004020000001374696d6564206f757420616674657220322073",
    ]

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
    }

    @Test("Every message from a worker encodes to its pinned bytes, and they decode back to it")
    func workerFramesArePinned() throws {
        let messages = FrameCodecTests.workerMessages + Self.moreWorkerMessages
        try #require(messages.count == Self.workerFrames.count)
        for (message, pinned) in zip(messages, Self.workerFrames) {
            let frame = try Frame.encode(message)
            #expect(Self.hex(frame) == pinned)
            let decoded = try Frame.decode(WorkerToHost.self, from: Array(frame.dropFirst(4)))
            #expect(Self.hex(try Frame.encode(decoded)) == pinned)
        }
    }

    @Test("Every message from the host encodes to its pinned bytes, and they decode back to it")
    func hostFramesArePinned() throws {
        try #require(FrameCodecTests.hostMessages.count == Self.hostFrames.count)
        for (message, pinned) in zip(FrameCodecTests.hostMessages, Self.hostFrames) {
            let frame = try Frame.encode(message)
            #expect(Self.hex(frame) == pinned)
            #expect(try Frame.decode(HostToWorker.self, from: Array(frame.dropFirst(4))) == message)
        }
    }
}
