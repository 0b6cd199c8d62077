/// Writes a ``FrameRecord`` by its declaration: each field read from the
/// value, each enum's tag and fields for the one case the value is.
struct FrameFieldWriter<Root>: FrameFields {
    /// Writing never fails.
    typealias Failure = Never

    /// The value being written, borrowed for the declaration's run.
    private let root: UnsafePointer<Root>
    /// Where the bytes go.
    var writer = FrameWriter()
    /// Whether an enum's case was written.
    private var wroteCase = false

    /// A writer of the value at `root`, which must outlive it: a pointer
    /// for the run of ``FrameRecord/encode(to:)``, never kept.
    init(of root: UnsafePointer<Root>) {
        self.root = root
    }

    /// Writes the field and returns it.
    mutating func field<Value: FrameCodable>(_ value: (Root) -> Value) -> Value {
        let field = value(root.pointee)
        field.encode(to: &writer)
        return field
    }

    /// Writes the pairs in ascending key order and returns them.
    mutating func sorted(_ value: (Root) -> [String: String], _ what: String) -> [String: String] {
        let pairs = value(root.pointee)
        writer.writeSorted(pairs)
        return pairs
    }

    /// Writes the tag and the case's fields when the value is this case.
    mutating func variant<each Field: FrameCodable>(
        _ tag: UInt8, _ make: (repeat each Field) -> Root, _ match: (Root) -> (repeat each Field)?
    ) {
        guard !wroteCase, let fields = match(root.pointee) else { return }
        wroteCase = true
        writer.write(tag)
        repeat (each fields).encode(to: &writer)
    }

    /// Writes the tag when the value is this case.
    mutating func variant(_ tag: UInt8, _ value: Root, _ match: (Root) -> Bool) {
        guard !wroteCase, match(root.pointee) else { return }
        wroteCase = true
        writer.write(tag)
    }

    /// The value written.
    mutating func end(_ kind: String) -> Root {
        // An enum whose declaration leaves out a case would write nothing for it.
        assert(wroteCase, "the frame declaration of a \(kind) has no variant for \(root.pointee)")
        return root.pointee
    }
}
