/// Room for a ``Lazy``'s kept service: five words, the size of an `any Protocol` existential.
///
/// A type of fixed layout, so that `Lazy`'s deinit looks up no metadata to destroy it.
@usableFromInline
struct LazySlot {
    @usableFromInline
    var words: (UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0)

    @usableFromInline
    init() {}

    /// The slot's own address: called on a final class's stored property, its storage, stable for the object's life.
    ///
    /// NB: a non-generic function, so that even a `Lazy`'s unspecialized
    /// deinit takes the address without looking up pointer metadata.
    @inlinable
    mutating func address() -> UnsafeMutableRawPointer {
        withUnsafeMutablePointer(to: &self) { UnsafeMutableRawPointer($0) }
    }
}
