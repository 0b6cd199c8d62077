/// Names an argument list by type, for use in a ``RegistrationKey``.
///
/// NB: a generic type over the pack, not the tuple `(repeat each Argument)`:
/// a tuple of one element is the element itself, so one argument of type
/// `(Int, String)` and two arguments `Int, String` would share a tuple type.
/// The metadata of `ArgumentList<…>` is unique for each distinct list.
@usableFromInline
struct ArgumentList<each Argument> {
    /// The identity of this argument list; ``NoArguments`` for the empty list.
    @inlinable
    static var id: ObjectIdentifier {
        var count = 0
        for _ in repeat (each Argument).self {
            count += 1
        }
        guard count > 0 else { return ObjectIdentifier(NoArguments.self) }
        return ObjectIdentifier(ArgumentList<repeat each Argument>.self)
    }

    /// The types in this argument list, in order.
    @inlinable
    static var types: [Any.Type] {
        var types: [Any.Type] = []
        repeat types.append((each Argument).self)
        return types
    }
}

/// The identity of the empty argument list.
///
/// NB: a plain type, whose metadata is a constant, so the resolve without
/// arguments needs no runtime call to form its key.
@usableFromInline
enum NoArguments {}
