import PluginABI

import Glibc

/// The rules on everything a plugin sends the host: the one place where
/// what a plugin says is checked, in the host and in a worker alike.
///
/// A plugin is hostile until someone vouches for it, so nothing it hands the
/// host is stored, printed or acted on before it passes these rules: not
/// what an in-process plugin passes through the C ABI, and not what an
/// isolated worker writes into its frames, which the plugin in it can forge.
/// Both paths call the same functions, so the two modes cannot drift apart.
///
/// Text that passes is valid UTF-8 within a stated length, but may still hold
/// control characters: `host` escapes those where text reaches a terminal
/// (its `TerminalText`), because JSON output must keep it exact.
package enum PluginOutputRules {
    /// The longest text the host accepts, in UTF-8 bytes, per kind of field.
    package enum Limit {
        /// A plugin's name, from its descriptor.
        package static let name = 64
        /// A plugin's version, from its descriptor.
        package static let version = 32
        /// A fetcher's display name.
        package static let displayName = 64
        /// A fetch's error message.
        package static let error = 512
        /// One log line; a longer one is cut, not refused.
        package static let logLine = 2048
        /// Digits in an amount, on both sides of the point together: the header's rule.
        package static let amountDigits = Int(PB_AMOUNT_MAX_DIGITS)
        /// A quote's base asset or currency code.
        package static let code = 16
        /// A plugin's description, from its descriptor.
        package static let description = 512
        /// A plugin's author, licence or homepage, from its descriptor.
        package static let credit = 128
        /// Plugin text the host repeats in a message of its own, such as
        /// the URL in a refusal; the rest is cut (``echoed(_:)``).
        package static let echo = 256
        /// The API base a plugin declares in its descriptor.
        package static let apiBaseURL = 512
    }

    /// What a plugin supplied, for messages.
    package enum Field: String, Sendable {
        case name
        case version
        case displayName = "display name"
        case symbol
        case error = "error message"
        case base = "base asset"
        case currency
        case amount
        case description
        case author
        case license
        case homepage
        case apiBaseURL = "API base URL"
    }

    /// Why a plugin's value was refused.
    package struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
        /// The field that broke a rule.
        package let field: Field
        /// The rule, as a phrase: "is not valid UTF-8".
        package let rule: String

        /// A violation of `rule` by `field`.
        package init(field: Field, rule: String) {
            self.field = field
            self.rule = rule
        }

        /// "its symbol is not valid UTF-8".
        package var description: String { "its \(field.rawValue) \(rule)" }
    }

    // MARK: Text

    /// Reads a NUL-terminated string that a plugin owns, scanning at most
    /// `limit + 1` bytes, so a string without its NUL is refused rather than
    /// read until the process faults.
    /// - Returns: The string, or nil for a NULL pointer.
    package static func text(_ pointer: UnsafePointer<CChar>?, _ field: Field, limit: Int) throws(Violation) -> String? {
        guard let pointer else { return nil }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { throw Violation(field: field, rule: "is longer than \(limit) bytes") }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw Violation(field: field, rule: "is not valid UTF-8")
        }
        return string
    }

    /// Checks text that arrived in a worker's frame (already valid Unicode).
    package static func text(_ string: String, _ field: Field, limit: Int) throws(Violation) -> String {
        guard string.utf8.count <= limit else { throw Violation(field: field, rule: "is longer than \(limit) bytes") }
        return string
    }

    /// A required, non-empty text field.
    package static func requiredText(_ pointer: UnsafePointer<CChar>?, _ field: Field, limit: Int) throws(Violation) -> String {
        guard let text = try text(pointer, field, limit: limit), !text.isEmpty else {
            throw Violation(field: field, rule: "is missing or empty")
        }
        return text
    }

    /// A log line, cut at ``Limit/logLine`` and with invalid UTF-8 replaced:
    /// a log line is only shown, so a bad one is repaired rather than lost.
    package static func logLine(_ pointer: UnsafePointer<CChar>) -> String {
        let length = strnlen(pointer, Limit.logLine + 1)
        let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: min(length, Limit.logLine)), as: UTF8.self)
        return length > Limit.logLine ? text + "… (cut at \(Limit.logLine) bytes)" : text
    }

    /// ``logLine(_:)`` for a line that arrived in a worker's frame.
    package static func logLine(_ line: String) -> String {
        guard line.utf8.count > Limit.logLine else { return line }
        let prefix = String(decoding: line.utf8.prefix(Limit.logLine), as: UTF8.self)
        return prefix + "… (cut at \(Limit.logLine) bytes)"
    }

    // MARK: Registration

    /// A plugin's name and version, from its descriptor or a worker's report.
    package static func identity(name: String, version: String) throws(Violation) -> (name: String, version: String) {
        (try self.name(name), try text(version, .version, limit: Limit.version))
    }

    /// A plugin's name: 1 to ``Limit/name`` ASCII letters, digits, `.`, `_`
    /// or `-`. A name is only a label, but users read it in tables and type
    /// it in settings: nothing in it may pass for a host row
    /// (`median of 3, spread 0.00%`), a path, a setting's separator or
    /// another script's letters.
    package static func name(_ name: String) throws(Violation) -> String {
        let allowed = { (byte: UInt8) in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default: false
            }
        }
        guard (1...Limit.name).contains(name.utf8.count), name.utf8.allSatisfy(allowed) else {
            throw Violation(field: .name, rule: "\(quoted(name)) is not 1 to \(Limit.name) ASCII letters, digits, '.', '_' or '-'")
        }
        return name
    }

    /// The descriptor's optional text, from a descriptor in memory: each
    /// pointer is nil when the plugin left the field unset or its
    /// `struct_size` does not cover it.
    package static func metadata(
        abiVersion: UInt32, descriptorSize: UInt32, description: UnsafePointer<CChar>?, author: UnsafePointer<CChar>?,
        license: UnsafePointer<CChar>?, homepage: UnsafePointer<CChar>?, apiBaseURL: UnsafePointer<CChar>?
    ) throws(Violation) -> PluginMetadata {
        PluginMetadata(
            abiVersion: abiVersion, descriptorSize: descriptorSize,
            description: try text(description, .description, limit: Limit.description),
            author: try text(author, .author, limit: Limit.credit),
            license: try text(license, .license, limit: Limit.credit),
            homepage: try text(homepage, .homepage, limit: Limit.credit),
            apiBaseURL: try text(apiBaseURL, .apiBaseURL, limit: Limit.apiBaseURL)
        )
    }

    /// The same checks for metadata that arrived in a worker's frame.
    package static func metadata(_ metadata: PluginMetadata) throws(Violation) -> PluginMetadata {
        func optional(_ value: String?, _ field: Field, _ limit: Int) throws(Violation) -> String? {
            guard let value else { return nil }
            return try text(value, field, limit: limit)
        }
        return PluginMetadata(
            abiVersion: metadata.abiVersion, descriptorSize: metadata.descriptorSize,
            description: try optional(metadata.description, .description, Limit.description),
            author: try optional(metadata.author, .author, Limit.credit),
            license: try optional(metadata.license, .license, Limit.credit),
            homepage: try optional(metadata.homepage, .homepage, Limit.credit),
            apiBaseURL: try optional(metadata.apiBaseURL, .apiBaseURL, Limit.apiBaseURL)
        )
    }

    /// Checks a fetcher's symbol against the header's rule,
    /// `pb_symbol_is_valid`: the one the SDK applies before it registers.
    package static func symbol(_ symbol: String) throws(Violation) -> String {
        var bytes = symbol
        let isValid = bytes.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { pb_symbol_is_valid($0.baseAddress, $0.count) }
        }
        guard isValid else {
            throw Violation(field: .symbol, rule: "\(quoted(symbol)) is not 1 to \(PB_SYMBOL_MAX_LENGTH) upper-case letters or digits")
        }
        return symbol
    }

    /// Checks a fetcher's display name; an empty one shows the symbol instead.
    package static func displayName(_ name: String, symbol: String) throws(Violation) -> String {
        let name = try text(name, .displayName, limit: Limit.displayName)
        return name.isEmpty ? symbol : name
    }

    // MARK: Answers

    /// What a plugin answered, as Swift strings (nil where it passed NULL).
    package struct Answer: Sendable, Equatable {
        /// The asset priced, e.g. "ETH".
        package var base: String?
        /// The quote currency, e.g. "USD".
        package var currency: String?
        /// The price as decimal text.
        package var amount: String?
        /// Why there is no price.
        package var error: String?

        /// An answer of these fields.
        package init(base: String? = nil, currency: String? = nil, amount: String? = nil, error: String? = nil) {
            self.base = base
            self.currency = currency
            self.amount = amount
            self.error = error
        }
    }

    /// Reads a `pb_fetch_result` that a plugin owns into an ``Answer``;
    /// a field that is not bounded UTF-8 is refused here.
    package static func answer(from result: pb_fetch_result) throws(Violation) -> Answer {
        Answer(
            base: try text(result.base, .base, limit: Limit.code),
            currency: try text(result.currency, .currency, limit: Limit.code),
            amount: try text(result.amount, .amount, limit: Limit.amountDigits + 2),
            error: try text(result.error, .error, limit: Limit.error)
        )
    }

    /// `-?[0-9]+(\.[0-9]+)?` with at most ``Limit/amountDigits`` digits.
    package static func isPlainDecimal(_ amount: String) -> Bool {
        var bytes = Substring(amount).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(isDigit) else { return false }
        var digits = whole.count
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(isDigit) else { return false }
            digits += parts[1].count
        }
        return digits <= Limit.amountDigits
    }

    /// Plugin text as a host message repeats it: whole up to
    /// ``Limit/echo`` bytes, else cut there, saying how long it was.
    package static func echoed(_ text: String) -> String {
        let length = text.utf8.count
        guard length > Limit.echo else { return text }
        return String(decoding: text.utf8.prefix(Limit.echo), as: UTF8.self) + "… (cut; \(length) bytes in all)"
    }

    /// A value for a message: quoted, and cut when long, so a message about a
    /// huge value stays one readable line.
    package static func quoted(_ value: String) -> String {
        let shown = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
        return "\"\(shown)\""
    }
}
