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

extension Optional: FrameCodable where Wrapped: FrameCodable {
    /// A presence flag, then the value when there is one.
    package func encode(to writer: inout FrameWriter) {
        guard let self else { return writer.write(UInt8(0)) }
        writer.write(UInt8(1))
        self.encode(to: &writer)
    }
    /// A presence flag, 0 or 1, then the value when it is 1.
    package init(from reader: inout FrameReader) throws(FrameError) { self = try reader.readOptional(Wrapped.self) }
}

extension Array: FrameCodable where Element: FrameCodable {
    /// A count, then each item; bytes (the same encoding) in one copy.
    package func encode(to writer: inout FrameWriter) {
        // NB: a cast between identical types, so an HTTP body is copied
        // whole rather than a byte at a time; specialization folds it away.
        if Element.self == UInt8.self { return writer.write(bytes: unsafeBitCast(self, to: [UInt8].self)) }
        writer.write(UInt32(truncatingIfNeeded: count))
        for item in self { item.encode(to: &writer) }
    }
    /// A count, then that many items; a count beyond the bytes left is refused.
    package init(from reader: inout FrameReader) throws(FrameError) {
        if Element.self == UInt8.self {
            self = unsafeBitCast(try reader.readBytes(), to: [Element].self)
        } else {
            self = try reader.readList(Element.self)
        }
    }
}
