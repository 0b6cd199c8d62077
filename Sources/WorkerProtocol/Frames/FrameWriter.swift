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

    /// Appends any value of the protocol (an optional as a presence flag,
    /// then the value when there is one; a list as a count, then each item).
    package mutating func write(_ value: some FrameCodable) {
        value.encode(to: &self)
    }

    /// Appends a count, then each key and value in ascending key order:
    /// the one encoding of a dictionary.
    package mutating func writeSorted(_ pairs: [String: String]) {
        let sorted = pairs.sorted { $0.key < $1.key }
        write(UInt32(truncatingIfNeeded: sorted.count))
        for (key, value) in sorted {
            write(key)
            write(value)
        }
    }
}
