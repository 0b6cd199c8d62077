/// The framing between the host and a worker.
///
/// A frame is a 4-byte unsigned length `N` in big-endian byte order,
/// followed by an `N`-byte body: one ``HostToWorker`` message from the host,
/// or one ``WorkerToHost`` message from the worker, in the binary layout of
/// ``FrameWriter`` (big-endian integers, length-prefixed UTF-8 text, a tag
/// byte before each enum's payload). `N` is at most ``maximumLength``.
///
/// ```
/// +--------+--------+--------+--------+------------------------ … -+
/// |         length N (UInt32, BE)     |  N bytes: tag, then fields  |
/// +--------+--------+--------+--------+------------------------ … -+
/// ```
///
/// Decoding is a pure function of the bytes: it never traps, whatever they
/// are (the host decodes what a hostile plugin in a worker may forge), and
/// a body that decodes encodes back to the same bytes: every value has one
/// encoding. ``WorkerStartup`` gives the whole process layout.
package enum Frame {
    /// 16 MiB: a price is a few hundred bytes, an HTTP body at most the
    /// networking's limit (1 MiB).
    package static let maximumLength = 16 << 20

    /// The frame that carries `message`: its length prefix, then its body.
    /// - Throws: ``FrameError/tooLong(_:)`` when the body is over ``maximumLength``.
    package static func encode(_ message: some FrameCodable) throws(FrameError) -> [UInt8] {
        var writer = FrameWriter()
        // Room for the prefix, filled in once the body's length is known.
        writer.write(UInt32(0))
        message.encode(to: &writer)
        var frame = writer.bytes
        let length = frame.count - 4
        guard length <= maximumLength else { throw .tooLong(length) }
        for index in 0..<4 { frame[index] = UInt8(truncatingIfNeeded: UInt32(length) >> (24 - 8 * UInt32(index))) }
        return frame
    }

    /// The message a frame's body carries; the body must hold exactly one.
    /// - Throws: ``FrameError/undecodable(_:)`` saying what is wrong with it.
    package static func decode<Message: FrameCodable>(_ type: Message.Type, from body: [UInt8]) throws(FrameError) -> Message {
        var reader = FrameReader(body)
        let message = try Message(from: &reader)
        try reader.finish()
        return message
    }
}

/// Splits a byte stream into frame bodies, however the bytes arrive.
package struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Where the first byte not yet handed out as a frame is in `buffer`.
    private var start = 0

    /// An empty decoder.
    package init() {}

    /// Bytes received and not yet part of a whole frame.
    package var pendingCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
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
    package mutating func next() throws(FrameError) -> [UInt8]? {
        guard pendingCount >= 4 else { return nil }
        let length = buffer[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= Frame.maximumLength else { throw .tooLong(length) }
        guard pendingCount >= 4 + length else { return nil }
        let body = Array(buffer[start + 4..<start + 4 + length])
        start += 4 + length
        return body
    }
}
