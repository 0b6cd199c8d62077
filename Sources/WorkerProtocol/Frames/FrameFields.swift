/// One pass over a ``FrameRecord``'s declaration: `FrameFieldWriter`
/// writes it, `FrameFieldReader` reads it.
///
/// A struct declares its fields; an enum declares each case with its tag
/// (`variant`), then ends with `end`. Each call says which field or case
/// it is by a key path or a pattern on the value, used only when writing.
package protocol FrameFields<Root> {
    /// The value the declaration describes.
    associatedtype Root
    /// `Never` when writing; ``FrameError`` when reading.
    associatedtype Failure: Error

    /// The next field: a value of the protocol.
    /// - Parameter value: Reads the field from the value being written.
    mutating func field<Value: FrameCodable>(_ value: (Root) -> Value) throws(Failure) -> Value

    /// The next field: text keys and values as a count, then the pairs in
    /// strictly ascending key order, the only encoding of a dictionary.
    /// - Parameters:
    ///   - value: Reads the field from the value being written.
    ///   - what: What the keys are, for the error when they are out of order, e.g. "configuration keys".
    mutating func sorted(_ value: (Root) -> [String: String], _ what: String) throws(Failure) -> [String: String]

    /// A case of an enum: `tag`, then the case's fields.
    /// - Parameters:
    ///   - tag: The byte that introduces the case; unique within the enum.
    ///   - make: The case, from its fields (usually the case itself, `Self.load`).
    ///   - match: The case's fields when the value is this case, else nil.
    mutating func variant<each Field: FrameCodable>(
        _ tag: UInt8, _ make: (repeat each Field) -> Root, _ match: (Root) -> (repeat each Field)?) throws(Failure)

    /// A case of an enum without fields: only `tag`.
    /// - Parameters:
    ///   - tag: The byte that is the case; unique within the enum.
    ///   - value: The case.
    ///   - match: Whether the value is this case.
    mutating func variant(_ tag: UInt8, _ value: Root, _ match: (Root) -> Bool) throws(Failure)

    /// The case that an enum's `variant`s found.
    /// - Parameter kind: What the tag introduces, for the error when it names no case, e.g. "message to a worker".
    mutating func end(_ kind: String) throws(Failure) -> Root
}
