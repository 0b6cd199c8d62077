/// Arbitrary bytes read as the fields a target needs.
///
/// Every read succeeds: past the end, numbers are 0 and texts empty, so
/// any input is a valid run and the fuzzer never wastes one on a format.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes not read yet.
    var rest: ArraySlice<UInt8> { bytes[offset...] }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `Value.bitWidth / 8` bytes, little-endian.
    mutating func integer<Value: FixedWidthInteger>(_: Value.Type = Value.self) -> Value {
        var value = Value.zero
        for shift in stride(from: 0, to: Value.bitWidth, by: 8) {
            value |= Value(truncatingIfNeeded: byte()) << shift
        }
        return value
    }

    /// The bytes up to the next newline (which is consumed), or to the end.
    mutating func line() -> ArraySlice<UInt8> {
        let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        defer { offset = min(end + 1, bytes.count) }
        return bytes[offset..<end]
    }

    /// ``line()`` as text, any invalid UTF-8 replaced.
    mutating func lineText() -> String {
        String(decoding: line(), as: UTF8.self)
    }

    /// A length byte, then that many bytes (fewer at the end).
    mutating func counted() -> ArraySlice<UInt8> {
        let count = Int(byte())
        let end = min(offset + count, bytes.count)
        defer { offset = end }
        return bytes[offset..<end]
    }

    /// ``counted()`` as text, any invalid UTF-8 replaced.
    mutating func countedText() -> String {
        String(decoding: counted(), as: UTF8.self)
    }

    /// ``countedText()``, or nil when a flag byte says so.
    mutating func optionalText() -> String? {
        byte() & 1 == 0 ? nil : countedText()
    }

    /// Everything not read yet; the input is then at its end.
    mutating func remaining() -> ArraySlice<UInt8> {
        defer { offset = bytes.count }
        return rest
    }
}
