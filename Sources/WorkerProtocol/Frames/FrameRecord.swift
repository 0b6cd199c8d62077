/// A value of the frame protocol whose encoding is declared once: its
/// fields in order, or its cases with their tags, in ``frameFields(_:)``.
///
/// Encoding and decoding both run that one declaration, so a field cannot
/// be written in one order and read in another, and adding a field to a
/// frame is one edit: a line in the declaration.
///
/// ```swift
/// extension FetchRequest: FrameRecord {
///     package static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self {
///         Self(
///             id: try fields.field(\.id), symbol: try fields.field(\.symbol), currency: try fields.field(\.currency),
///             timeoutMilliseconds: try fields.field(\.timeoutMilliseconds))
///     }
/// }
/// ```
///
/// When writing, each `field` writes the value its key path reads from the
/// value being encoded, and returns it; when reading, it reads the next
/// value with that field's type. Either way the declaration's result is
/// the value, built through its ordinary initializer or case.
package protocol FrameRecord: FrameCodable {
    /// The value's fields in wire order, each read or written by `fields`.
    /// - Throws: When reading, the ``FrameError`` of the first field that is not the encoding of one; writing never throws.
    static func frameFields<Fields: FrameFields<Self>>(_ fields: inout Fields) throws(Fields.Failure) -> Self
}

extension FrameRecord {
    /// Writes the declared fields in order.
    package func encode(to writer: inout FrameWriter) {
        // Borrowed, not copied: a copy would retain every text in the value.
        withUnsafePointer(to: self) { root in
            var fields = FrameFieldWriter(of: root)
            // Swapped in and out, never copied: the buffer stays uniquely
            // referenced, so appends never copy what was written before.
            swap(&fields.writer, &writer)
            _ = Self.frameFields(&fields)
            swap(&fields.writer, &writer)
        }
    }

    /// Reads the declared fields in order, refusing bytes that are not the
    /// encoding of one.
    package init(from reader: inout FrameReader) throws(FrameError) {
        var fields = FrameFieldReader<Self>(reader)
        self = try Self.frameFields(&fields)
        reader = fields.reader
    }
}
