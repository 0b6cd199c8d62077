/// A NUL-terminated copy of a string that is never freed.
///
/// Only used for the handful of configuration values a host has; the header
/// promises plugins those pointers stay valid for the life of the process.
package struct CString: @unchecked Sendable {
    // @unchecked: the buffer is written once here and only read afterwards.
    /// The copy.
    package let pointer: UnsafePointer<CChar>

    /// Copies `string`.
    package init(_ string: String) {
        let bytes = string.utf8CString
        let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        pointer = UnsafePointer(buffer.baseAddress.unsafelyUnwrapped)
    }
}
