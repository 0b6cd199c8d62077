/// Stack room for one service value of up to eight words, such as a class
/// reference or an existential, while the engine initializes it.
@usableFromInline
struct InlineScratch {
    @usableFromInline
    var words: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    init() {}
}
