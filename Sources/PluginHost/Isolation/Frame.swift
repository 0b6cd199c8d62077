import FoundationEssentials

/// The framing between the host and an isolated plugin worker.
///
/// A frame is a 4-byte unsigned length `N` in big-endian byte order,
/// followed by `N` bytes of UTF-8 JSON: one ``HostToWorker`` message from
/// the host, or one ``WorkerToHost`` message from the worker. `N` is at
/// most ``maximumLength``; a longer frame, or a body that is not such a
/// message, is a protocol violation and ends the worker.
///
/// ```
/// +--------+--------+--------+--------+------------------------ … -+
/// |         length N (UInt32, BE)     |  N bytes of JSON            |
/// +--------+--------+--------+--------+------------------------ … -+
/// ```
///
/// The worker reads frames on descriptor 3 and writes them on descriptor 4
/// (two pipes); see ``PluginWorker`` for the whole process layout, and
/// ``FrameStream`` for how each side reads and writes them.
enum Frame {
    /// 16 MiB: a price is a few hundred bytes, an HTTP body at most the
    /// networking's limit (1 MiB) plus base64 overhead.
    static let maximumLength = 16 << 20

    /// The frame that carries `message`: its length prefix, then its JSON.
    static func encode(_ message: some Encodable) throws -> [UInt8] {
        let body = try JSONEncoder().encode(message)
        guard body.count <= maximumLength else { throw FrameError.tooLong(body.count) }
        let length = UInt32(body.count)
        var frame: [UInt8] = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        frame.reserveCapacity(4 + body.count)
        frame.append(contentsOf: body)
        return frame
    }

    /// The message a frame's body carries.
    /// - Throws: ``FrameError/undecodable(_:)`` when the body is not such a message.
    static func decode<Message: Decodable>(_ type: Message.Type, from body: Data) throws(FrameError) -> Message {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw .undecodable("\(error)")
        }
    }
}

/// Why a frame could not be read or written.
enum FrameError: Error, Equatable, CustomStringConvertible {
    /// A frame's length is over ``Frame/maximumLength``.
    case tooLong(Int)
    /// A frame's body is not a message of the protocol; the JSON decoder's reason.
    case undecodable(String)

    var description: String {
        switch self {
        case .tooLong(let length): "a frame of \(length) bytes, longer than the limit of \(Frame.maximumLength)"
        case .undecodable(let reason): "an undecodable frame: \(reason)"
        }
    }
}

/// Splits a byte stream into frame bodies, however the bytes arrive.
struct FrameDecoder {
    private var buffer: [UInt8] = []
    /// Where the first byte not yet handed out as a frame is in `buffer`.
    private var start = 0

    /// Bytes received and not yet part of a whole frame.
    var pendingCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // Drop what was handed out before growing, so the buffer stays
        // about one frame long.
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame's body, or nil until more bytes arrive.
    /// - Throws: ``FrameError/tooLong(_:)`` as soon as a length prefix is over the limit.
    mutating func next() throws(FrameError) -> Data? {
        guard pendingCount >= 4 else { return nil }
        let length = buffer[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= Frame.maximumLength else { throw .tooLong(length) }
        guard pendingCount >= 4 + length else { return nil }
        let body = Data(buffer[start + 4..<start + 4 + length])
        start += 4 + length
        return body
    }
}
