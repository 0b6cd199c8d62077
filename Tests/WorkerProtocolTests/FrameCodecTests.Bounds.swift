import PluginBoundary
import Testing
import WorkerProtocol

/// Every frame's bounds: each message of either side, cut anywhere, is
/// refused as truncated, and one byte longer as trailing bytes; a list's
/// count is weighed against the bytes left after it, not the whole body.
extension FrameCodecTests {
    @Test("Every message from the host, cut short anywhere, is refused as truncated")
    func hostTruncation() throws {
        for message in Self.hostMessages {
            let body = try Self.body(message)
            for length in 0..<body.count {
                #expect(throws: FrameError.undecodable(.truncated)) { try Frame.decode(HostToWorker.self, from: Array(body.prefix(length))) }
            }
        }
    }

    @Test("Every message of either side with one byte more is refused for it")
    func oneByteMore() throws {
        for message in Self.workerMessages {
            #expect(throws: FrameError.undecodable(.trailingBytes(1))) { try Frame.decode(WorkerToHost.self, from: Self.body(message) + [0]) }
        }
        for message in Self.hostMessages {
            #expect(throws: FrameError.undecodable(.trailingBytes(1))) { try Frame.decode(HostToWorker.self, from: Self.body(message) + [0]) }
        }
    }

    // NB: a count within the body but past its own bytes must be refused
    // before its first item is read: read, that item's bad UTF-8 would be
    // the error, and the count would have been allocated for.
    @Test("A list count past the bytes after it is refused as truncated before any item is read, though the whole body is longer", arguments: [1, 2, 10, 40])
    func listCountAgainstItsOwnBytes(excess: Int) throws {
        // registered, a descriptor (longer than the list's bytes), then a fetcher list: its count, then one fetcher whose symbol is not UTF-8.
        var writer = FrameWriter()
        writer.write(UInt8(2))
        writer.write(UInt8(1))
        writer.write(Self.descriptor)
        let prefix = writer.bytes.count
        let item: [UInt8] = [0, 0, 0, 1, 0xFF]
        let count = item.count + excess
        #expect(count < prefix, "the count must stay within the whole body for this test to mean anything")
        writer.write(UInt32(count))
        let body = writer.bytes + item
        #expect(throws: FrameError.undecodable(.truncated)) { try Frame.decode(WorkerToHost.self, from: body) }
        // The same item under an honest count is read, and refused for its UTF-8.
        var honest = Array(body[..<prefix])
        honest += [0, 0, 0, 1] + item
        #expect(throws: FrameError.undecodable(.notUTF8)) { try Frame.decode(WorkerToHost.self, from: honest) }
    }
}
