/// A response body as an error message quotes it.
enum ResponseExcerpt {
    /// The first 80 characters of `body`, quoted, on one line.
    static func of(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(320), as: UTF8.self).singleLine
        let short = text.count > 80 ? text.prefix(80) + "…" : Substring(text)
        return "\"\(short)\""
    }
}
