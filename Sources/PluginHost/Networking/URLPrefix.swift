/// A URL under which plugins may fetch: the API base, or a user's grant.
///
/// A URL is under a prefix when it has the same scheme, host (in any case)
/// and port (80 and 443 when not written), and its path is the prefix's
/// path or continues it past a `/`: `https://example.com/v2` admits
/// `https://example.com/v2/prices` but not `https://example.com/v2evil`.
/// The prefix's query, if it could have one, would be ignored, so it may
/// not have one.
///
/// ```swift
/// let prefix = try URLPrefix("https://api.example.com/v2")
/// ```
package struct URLPrefix: Sendable, Hashable, CustomStringConvertible {
    let url: StrictURL

    /// Reads a prefix.
    /// - Parameter text: An absolute http, https or file URL, without a
    ///   query, user name, fragment, or `.` or `..` segment.
    /// - Throws: ``URLPrefixError`` saying what is wrong with `text`.
    package init(_ text: String) throws(URLPrefixError) {
        let url: StrictURL
        do {
            url = try StrictURL(text)
        } catch {
            throw URLPrefixError(text: text, problem: error.description)
        }
        guard url.query == nil else {
            throw URLPrefixError(text: text, problem: "has a query; a prefix is a scheme, a host and a path")
        }
        self.url = url
    }

    /// The prefix as the host reads it: the scheme and host lower-cased.
    package var description: String { url.text }

    /// Whether `candidate` is under this prefix.
    func admits(_ candidate: StrictURL) -> Bool {
        candidate.scheme == url.scheme && candidate.host == url.host && candidate.effectivePort == url.effectivePort
            && candidate.segments.starts(with: url.directorySegments)
    }

    /// For a `file` prefix, the decoded path of its directory (or file).
    var filePath: String? {
        url.scheme == "file" ? "/" + url.directorySegments.joined(separator: "/") : nil
    }
}

/// A text that cannot be a ``URLPrefix``.
package struct URLPrefixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    package let text: String
    let problem: String

    /// One line: the text and what is wrong with it, e.g.
    /// "'https://user@example.com' has a user name or password (user@host), which the host never sends".
    package var description: String { "'\(text)' \(problem)" }
}
