/// A C `void *` that the plugin or host owns and that is only ever passed back
/// untouched, never dereferenced by the holder.
package struct OpaqueContext: @unchecked Sendable {
    // @unchecked: the pointee belongs to the other side of the C ABI, which
    // promises (patchbay_plugin.h) that it is valid for the life of the
    // process and usable from any thread. Swift never reads through it.
    /// The pointer, passed back as it came.
    package let pointer: UnsafeMutableRawPointer?

    /// Wraps `pointer`.
    package init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}
