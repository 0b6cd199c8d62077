import FoundationEssentials
import Glibc

/// A URL read by the host's own strict rules, so that what the
/// ``URLPolicy`` checks is exactly what is fetched.
///
/// Two parsers that disagree about a URL are how a check is bypassed:
/// `http://allowed\@evil/` is one host to one reader and another to the
/// next. So the host reads a plugin's URL once, refuses anything a reader
/// could take two ways (a backslash, a user name, a fragment, a character
/// RFC 3986 does not allow where it stands, a `.` or `..` segment however
/// encoded, an encoded `/`), and fetches ``text``: the same URL rebuilt from
/// the parts it checked.
struct StrictURL: Sendable, Hashable {
    /// `http`, `https` or `file`, lower-cased.
    let scheme: String
    /// The host, lower-cased; empty for `file`.
    let host: String
    /// The port as written, if any.
    let port: Int?
    /// The path as written (still percent-encoded): empty, or starting with `/`.
    let path: String
    /// The path's segments, percent-decoded. `/v2/a/` is `["v2", "a", ""]`.
    let segments: [String]
    /// The query as written, without its `?`; http and https only.
    let query: String?

    /// The port a connection goes to: the written one, else the scheme's.
    var effectivePort: Int? {
        port ?? (scheme == "http" ? 80 : scheme == "https" ? 443 : nil)
    }

    /// The URL rebuilt from its checked parts: what the host fetches.
    var text: String {
        textWithoutQuery + (query.map { "?\($0)" } ?? "")
    }

    /// ``text`` without its query: what a grant of this very URL looks like.
    var textWithoutQuery: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path)"
    }

    /// ``segments`` without the empty one a trailing `/` leaves.
    var directorySegments: ArraySlice<String> {
        segments.last == "" ? segments.dropLast() : segments[...]
    }

    /// Why a text is not a URL the host fetches, as a phrase that follows it:
    /// "file:///a/../b has a '..' path segment".
    struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Reads `text`, refusing anything ambiguous.
    /// - Throws: ``ParseError`` saying what is wrong with it.
    init(_ text: String) throws(ParseError) {
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ParseError(description: "has a space, a control character or a non-ASCII character; percent-encode it")
        }
        guard !text.contains("\\") else { throw ParseError(description: "has a backslash, which readers of URLs disagree about") }
        guard !text.contains("#") else { throw ParseError(description: "has a fragment (#…), which is never fetched") }
        guard let separator = text.firstRange(of: "://") else {
            throw ParseError(description: "is not an absolute URL of the form scheme://host/path")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard ["http", "https", "file"].contains(scheme) else {
            throw ParseError(description: "has the scheme '\(scheme)'; the host fetches only http, https and file")
        }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let afterAuthority = rest[authorityEnd...]
        let (path, query): (Substring, Substring?) =
            if let mark = afterAuthority.firstIndex(of: "?") {
                (afterAuthority[..<mark], afterAuthority[afterAuthority.index(after: mark)...])
            } else {
                (afterAuthority, nil)
            }
        guard !authority.contains("@") else {
            throw ParseError(description: "has a user name or password (user@host), which the host never sends")
        }

        let (host, port) = try Self.authority(authority, scheme: scheme)
        guard path.allSatisfy(Self.isPathCharacter) else {
            throw ParseError(description: "has a character its path may not hold unencoded; percent-encode it")
        }
        if let query {
            guard scheme != "file" else { throw ParseError(description: "has a query, which a file URL cannot have") }
            guard query.allSatisfy({ Self.isPathCharacter($0) || $0 == "?" }) else {
                throw ParseError(description: "has a character its query may not hold unencoded; percent-encode it")
            }
        }
        if scheme == "file" && !path.hasPrefix("/") {
            throw ParseError(description: "has no path; a file URL names a file, as in file:///srv/prices")
        }
        let segments = path.isEmpty ? [] : try path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(Self.decoded)
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = String(path)
        self.segments = segments
        self.query = query.map(String.init)
    }

    private static func authority(_ authority: Substring, scheme: String) throws(ParseError) -> (host: String, port: Int?) {
        if scheme == "file" {
            guard authority.isEmpty || authority.lowercased() == "localhost" else {
                throw ParseError(description: "names the host '\(authority)'; a file URL is local: file:///path")
            }
            return ("", nil)
        }
        var host = authority
        var port: Int?
        // An IPv6 literal is bracketed and full of colons; the port follows the bracket.
        let portColon = authority.hasPrefix("[") ? authority.lastIndex(of: "]").flatMap { authority[$0...].firstIndex(of: ":") } : authority.lastIndex(of: ":")
        if let colon = portColon {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits), (1...65535).contains(number) else {
                throw ParseError(description: "has the port '\(digits)'; give a number from 1 to 65535")
            }
            port = number
        }
        let isName = !host.isEmpty && host.allSatisfy { $0.isASCIILetterOrDigit || "-._~".contains($0) }
        // Only a real IPv6 address in brackets: Foundation reads "[c]" as the name "c",
        // so a bracketed text the policy took as a literal would reach another host.
        let isIPv6 = host.count > 2 && host.hasPrefix("[") && host.hasSuffix("]")
            && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            && Self.isIPv6Address(String(host.dropFirst().dropLast()))
        guard isName || isIPv6 else {
            throw ParseError(description: host.isEmpty ? "has no host" : "has the host '\(host)', which is not a plain name or address")
        }
        return (host.lowercased(), port)
    }

    /// Whether `text` is an IPv6 address, as the system's resolver reads one.
    private static func isIPv6Address(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// RFC 3986 `pchar`, `/` and `%`: what a path may hold unencoded.
    private static func isPathCharacter(_ character: Character) -> Bool {
        character.isASCIILetterOrDigit || "-._~!$&'()*+,;=:@/%".contains(character)
    }

    /// One path segment, percent-decoded; refused if it is `.` or `..`, or
    /// decodes to a `/`, a backslash or a NUL, however it was written.
    private static func decoded(_ segment: Substring) throws(ParseError) -> String {
        var bytes: [UInt8] = []
        var index = segment.utf8.startIndex
        let utf8 = segment.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index = utf8.index(after: index)
                continue
            }
            let high = utf8.index(after: index)
            // Each of the two must be a hex digit: `UInt8(_:radix:)` also
            // takes a sign, and "%+e" is no escape to any other reader.
            guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                utf8[high...utf8.index(after: high)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                let value = UInt8(String(decoding: utf8[high...utf8.index(after: high)], as: UTF8.self), radix: 16)
            else {
                throw ParseError(description: "has a '%' that is not followed by two hex digits")
            }
            guard value != 0, value != UInt8(ascii: "/"), value != UInt8(ascii: "\\") else {
                throw ParseError(description: "has an encoded '/', '\\' or NUL in its path")
            }
            bytes.append(value)
            index = utf8.index(high, offsetBy: 2)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ParseError(description: "has a path that is not UTF-8 once decoded")
        }
        guard text != ".", text != ".." else { throw ParseError(description: "has a '\(text)' path segment") }
        return text
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
