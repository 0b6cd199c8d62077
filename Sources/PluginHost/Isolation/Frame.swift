#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore

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
/// (two pipes); see ``PluginWorker`` for the whole process layout.
enum Frame {
    /// 16 MiB: a price is a few hundred bytes, an HTTP body at most the
    /// networking's limit (1 MiB) plus base64 overhead.
    static let maximumLength = 16 << 20

    /// The frame that carries `message`.
    static func encode(_ message: some Encodable, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        let body = try JSONEncoder().encode(message)
        guard body.count <= maximumLength else { throw FrameError.tooLong(body.count) }
        var buffer = allocator.buffer(capacity: 4 + body.count)
        buffer.writeInteger(UInt32(body.count), endianness: .big)
        buffer.writeBytes(body)
        return buffer
    }

    /// The message a frame's body carries.
    static func decode<Message: Decodable>(_ type: Message.Type, from body: ByteBuffer) throws -> Message {
        try JSONDecoder().decode(type, from: Data(body.readableBytesView))
    }
}

/// Why a frame could not be read or written.
enum FrameError: Error, CustomStringConvertible {
    case tooLong(Int)

    var description: String {
        switch self {
        case .tooLong(let length): "a frame of \(length) bytes, longer than the limit of \(Frame.maximumLength)"
        }
    }
}

/// Splits the byte stream into frame bodies.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, endianness: .big, as: UInt32.self) else {
            return .needMoreData
        }
        guard Int(length) <= Frame.maximumLength else { throw FrameError.tooLong(Int(length)) }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let body = buffer.readSlice(length: Int(length)) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(body))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
