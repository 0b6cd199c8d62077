/// Type-erased operations on a service value, captured where the type is known.
///
/// The resolution engine is not generic: it moves values through raw memory
/// and calls these to copy, destroy or convert them.
@usableFromInline
struct ValueWitness: Sendable {
    @usableFromInline
    let type: Any.Type
    @usableFromInline
    let size: Int
    @usableFromInline
    let alignment: Int
    /// Initializes the second pointer with a copy of the value at the first.
    @usableFromInline
    let copy: @Sendable (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void
    /// Deinitializes the value at the pointer.
    @usableFromInline
    let destroy: @Sendable (UnsafeMutableRawPointer) -> Void
    /// The class instance inside the value, if it is one (for weak storage).
    @usableFromInline
    let object: @Sendable (UnsafeRawPointer) -> AnyObject?
    /// Initializes the pointer from a class instance; false if the instance is not of this type.
    @usableFromInline
    let fromObject: @Sendable (AnyObject, UnsafeMutableRawPointer) -> Bool

    @inlinable
    init<Value>(_: Value.Type) {
        type = Value.self
        size = MemoryLayout<Value>.size
        alignment = MemoryLayout<Value>.alignment
        copy = { source, destination in
            destination.initializeMemory(
                as: Value.self, repeating: source.assumingMemoryBound(to: Value.self).pointee, count: 1)
        }
        destroy = { pointer in
            pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        }
        object = { pointer in
            let value: Any = pointer.assumingMemoryBound(to: Value.self).pointee
            guard Swift.type(of: value) is AnyClass else { return nil }
            return value as AnyObject
        }
        fromObject = { object, destination in
            guard let value = object as? Value else { return false }
            destination.initializeMemory(as: Value.self, repeating: value, count: 1)
            return true
        }
    }

    /// Allocates uninitialized heap storage for one value.
    func allocate() -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer.allocate(byteCount: Swift.max(size, 1), alignment: alignment)
    }
}
