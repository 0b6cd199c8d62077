/// A value of the frame protocol, with its one binary encoding.
///
/// `init(from:)` reads exactly what `encode(to:)` writes, and refuses any
/// other bytes with a ``FrameError``, never a trap.
package protocol FrameCodable {
    /// Appends the value's encoding.
    func encode(to writer: inout FrameWriter)
    /// Reads a value, refusing bytes that are not the encoding of one.
    init(from reader: inout FrameReader) throws(FrameError)
}

extension UInt8: FrameCodable {
    /// One byte.
    package func encode(to writer: inout FrameWriter) { writer.write(self) }
    /// One byte.
    package init(from reader: inout FrameReader) throws(FrameError) { self = try reader.readByte() }
}

extension UInt32: FrameCodable {
    /// Four bytes, big-endian.
    package func encode(to writer: inout FrameWriter) { writer.write(self) }
    /// Four bytes, big-endian.
    package init(from reader: inout FrameReader) throws(FrameError) { self = try reader.readUInt32() }
}

extension Int32: FrameCodable {
    /// Four bytes, two's complement, big-endian.
    package func encode(to writer: inout FrameWriter) { writer.write(UInt32(bitPattern: self)) }
    /// Four bytes, two's complement, big-endian.
    package init(from reader: inout FrameReader) throws(FrameError) { self = Int32(bitPattern: try reader.readUInt32()) }
}

extension UInt64: FrameCodable {
    /// Eight bytes, big-endian.
    package func encode(to writer: inout FrameWriter) { writer.write(self) }
    /// Eight bytes, big-endian.
    package init(from reader: inout FrameReader) throws(FrameError) { self = try reader.readUInt64() }
}

extension Int64: FrameCodable {
    /// Eight bytes, two's complement, big-endian.
    package func encode(to writer: inout FrameWriter) { writer.write(UInt64(bitPattern: self)) }
    /// Eight bytes, two's complement, big-endian.
    package init(from reader: inout FrameReader) throws(FrameError) { self = Int64(bitPattern: try reader.readUInt64()) }
}

extension Double: FrameCodable {
    /// The eight bytes of its IEEE 754 bit pattern, big-endian, so every
    /// value (NaN payloads included) reads back bit for bit.
    package func encode(to writer: inout FrameWriter) { writer.write(bitPattern) }
    /// The eight bytes of its bit pattern.
    package init(from reader: inout FrameReader) throws(FrameError) { self = Double(bitPattern: try reader.readUInt64()) }
}

extension Bool: FrameCodable {
    /// One byte, 0 or 1.
    package func encode(to writer: inout FrameWriter) { writer.write(UInt8(self ? 1 : 0)) }
    /// One byte, 0 or 1; anything else is refused.
    package init(from reader: inout FrameReader) throws(FrameError) { self = try reader.readFlag() }
}

extension String: FrameCodable {
    /// Its UTF-8, after a length.
    package func encode(to writer: inout FrameWriter) { writer.write(bytes: Array(utf8)) }
    /// UTF-8 after a length; invalid UTF-8 is refused, never repaired, so
    /// the text encodes back to the same bytes.
    package init(from reader: inout FrameReader) throws(FrameError) {
        guard let text = String(validating: try reader.readBytes(), as: UTF8.self) else { throw .undecodable(.notUTF8) }
        self = text
    }
}
