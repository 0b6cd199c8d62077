import PluginBoundary

/// Why a frame could not be read or written.
package enum FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A frame's length is over ``Frame/maximumLength``.
    case tooLong(Int)
    /// A frame's body is not a message of the protocol.
    case undecodable(Reason)

    /// What is wrong with a body that does not decode.
    package enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// It ends inside a value.
        case truncated
        /// A tag byte names no case of what it introduces, e.g. "a message".
        case unknownTag(UInt8, of: String)
        /// A name that is none of those it may be, e.g. of "plugin input field".
        case unknownName(String, of: String)
        /// A presence flag or a Boolean is neither 0 nor 1.
        case badFlag(UInt8)
        /// Text that is not valid UTF-8.
        case notUTF8
        /// Keys that are not in strictly ascending order, so a value would
        /// have two encodings, or one key twice.
        case unordered(String)
        /// Bytes left over after the message.
        case trailingBytes(Int)

        /// "it ends inside a value".
        package var description: String {
            switch self {
            case .truncated: "it ends inside a value"
            case .unknownTag(let tag, let what): "tag \(tag) names no kind of \(what)"
            case .unknownName(let name, let what): "\(PluginOutputRules.quoted(name)) names no \(what)"
            case .badFlag(let byte): "a flag is \(byte), not 0 or 1"
            case .notUTF8: "its text is not valid UTF-8"
            case .unordered(let what): "its \(what) are not in strictly ascending order"
            case .trailingBytes(let count): "\(count) bytes follow the message"
            }
        }
    }

    /// One phrase for messages, e.g. "an undecodable frame: it ends inside a value".
    package var description: String {
        switch self {
        case .tooLong(let length): "a frame of \(length) bytes, longer than the limit of \(Frame.maximumLength)"
        case .undecodable(let reason): "an undecodable frame: \(reason)"
        }
    }
}
