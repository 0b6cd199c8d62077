/// Writes a frame body: the one encoding of every value of the protocol.
///
/// Integers are big-endian and of fixed width; text and byte strings are a
/// `UInt32` length, then the bytes; an optional is a flag byte (0 or 1),
/// then the value when 1; a list is a `UInt32` count, then the items; an
/// enum is a tag byte, then its case's fields.
package struct FrameWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty body.
    package init() {}

    /// Appends one byte.
    package mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends 4 bytes, big-endian.
    package mutating func write(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends 8 bytes, big-endian.
    package mutating func write(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends a length, then `raw` as it is.
    package mutating func write(bytes raw: [UInt8]) {
        write(UInt32(truncatingIfNeeded: raw.count))
        bytes.append(contentsOf: raw)
    }

    /// Appends any value of the protocol.
    package mutating func write(_ value: some FrameCodable) {
        value.encode(to: &self)
    }

    /// Appends a presence flag, then the value when there is one.
    package mutating func write<Value: FrameCodable>(_ value: Value?) {
        guard let value else { return write(UInt8(0)) }
        write(UInt8(1))
        value.encode(to: &self)
    }

    /// Appends a count, then each item.
    package mutating func write<Item: FrameCodable>(_ items: [Item]) {
        write(UInt32(truncatingIfNeeded: items.count))
        for item in items { item.encode(to: &self) }
    }
}
