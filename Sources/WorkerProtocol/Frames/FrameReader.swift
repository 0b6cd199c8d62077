/// Reads a frame body written by ``FrameWriter``, refusing anything that is
/// not the one encoding of a value: a read never traps, and a value read
/// encodes back to the bytes it came from.
package struct FrameReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// A reader of `bytes`, from the first.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bytes not yet read.
    package var remaining: Int { bytes.count - offset }

    /// Reads one byte.
    package mutating func readByte() throws(FrameError) -> UInt8 {
        guard offset < bytes.count else { throw .undecodable(.truncated) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads 4 bytes, big-endian.
    package mutating func readUInt32() throws(FrameError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try readByte()) }
        return value
    }

    /// Reads 8 bytes, big-endian.
    package mutating func readUInt64() throws(FrameError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(try readByte()) }
        return value
    }

    /// Reads a length, then that many bytes.
    package mutating func readBytes() throws(FrameError) -> [UInt8] {
        let count = Int(try readUInt32())
        guard count <= remaining else { throw .undecodable(.truncated) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads a presence flag: false for 0, true for 1.
    package mutating func readFlag() throws(FrameError) -> Bool {
        switch try readByte() {
        case 0: false
        case 1: true
        case let other: throw .undecodable(.badFlag(other))
        }
    }

    /// Reads any value of the protocol.
    package mutating func read<Value: FrameCodable>(_: Value.Type = Value.self) throws(FrameError) -> Value {
        try Value(from: &self)
    }

    /// Reads a presence flag, then the value when there is one.
    package mutating func readOptional<Value: FrameCodable>(_: Value.Type = Value.self) throws(FrameError) -> Value? {
        try readFlag() ? try Value(from: &self) : nil
    }

    /// Reads a count, then that many items.
    package mutating func readList<Item: FrameCodable>(_: Item.Type = Item.self) throws(FrameError) -> [Item] {
        let count = Int(try readUInt32())
        // Every item takes at least a byte: a count beyond what is left is
        // a lie, refused before anything is allocated for it.
        guard count <= remaining else { throw .undecodable(.truncated) }
        var items: [Item] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try Item(from: &self)) }
        return items
    }

    /// What ``FrameWriter/writeSorted(_:)`` wrote; keys out of order are
    /// refused, so each dictionary has one encoding.
    /// - Parameter what: What the keys are, for the error.
    package mutating func readSorted(_ what: String) throws(FrameError) -> [String: String] {
        let count = Int(try readUInt32())
        guard count <= remaining else { throw .undecodable(.truncated) }
        var pairs: [String: String] = [:]
        var previous: String?
        for _ in 0..<count {
            let key: String = try read()
            if let previous, !(previous < key) { throw .undecodable(.unordered(what)) }
            previous = key
            // NB: typed, or `pairs[key] =` would read a `String?`: a flag, then text.
            let value: String = try read()
            pairs[key] = value
        }
        return pairs
    }

    /// Checks that the message used every byte.
    package func finish() throws(FrameError) {
        guard remaining == 0 else { throw .undecodable(.trailingBytes(remaining)) }
    }
}
