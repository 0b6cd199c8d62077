/// Reads a ``FrameRecord`` by its declaration, refusing bytes that are not
/// the encoding of one exactly as ``FrameReader`` does.
struct FrameFieldReader<Root>: FrameFields {
    /// Reading refuses what is not an encoding.
    typealias Failure = FrameError

    /// Where the bytes come from.
    var reader: FrameReader
    /// An enum's tag, once read.
    private var tag: UInt8?
    /// The case its tag named, once read.
    private var found: Root?

    /// A reader from where `reader` is.
    init(_ reader: FrameReader) {
        self.reader = reader
    }

    /// Reads the field.
    mutating func field<Value: FrameCodable>(_ value: (Root) -> Value) throws(FrameError) -> Value {
        try Value(from: &reader)
    }

    /// Reads the pairs, refusing keys out of order.
    mutating func sorted(_ value: (Root) -> [String: String], _ what: String) throws(FrameError) -> [String: String] {
        try reader.readSorted(what)
    }

    /// Reads the case's fields when the tag is this case's.
    mutating func variant<each Field: FrameCodable>(
        _ tag: UInt8, _ make: (repeat each Field) -> Root, _ match: (Root) -> (repeat each Field)?
    ) throws(FrameError) {
        guard found == nil, try readTag() == tag else { return }
        found = make(repeat try (each Field)(from: &reader))
    }

    /// Takes the case when the tag is its own.
    mutating func variant(_ tag: UInt8, _ value: Root, _ match: (Root) -> Bool) throws(FrameError) {
        guard found == nil, try readTag() == tag else { return }
        found = value
    }

    /// The case the tag named.
    /// - Throws: ``FrameError/Reason/unknownTag(_:of:)`` when it named none.
    mutating func end(_ kind: String) throws(FrameError) -> Root {
        let tag = try readTag()
        guard let found = found.take() else { throw .undecodable(.unknownTag(tag, of: kind)) }
        return found
    }

    /// The tag: read at the first case, then kept.
    private mutating func readTag() throws(FrameError) -> UInt8 {
        if let tag { return tag }
        let byte = try reader.readByte()
        tag = byte
        return byte
    }
}
