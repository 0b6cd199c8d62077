#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An exact decimal number, kept as the text it arrived as.
///
/// Prices travel as decimal text (`"15840.01"`), and binary floating point
/// cannot hold most of them: `Double("0.1")` is already off. A
/// `DecimalAmount` validates the text once and then never rewrites it, so
/// `"2718.281828459045235360287"` keeps all 25 digits and `"100000.10"` keeps
/// its trailing zero.
///
/// The accepted grammar is deliberately narrow: an optional `-`, one or more
/// ASCII digits, then optionally a `.` followed by one or more digits.
/// Exponents, a leading `+`, grouping separators and surrounding spaces are
/// rejected, because an API that sends them is not sending what Coinbase
/// documents.
///
/// ```swift
/// let amount = try DecimalAmount("100000.10")
/// print(amount)              // 100000.10
/// amount.decimalValue        // Decimal 100000.1, for arithmetic
/// ```
///
/// Two amounts are equal when their text is equal: `"1.50"` and `"1.5"` are
/// different amounts here. Compare ``decimalValue`` for numeric equality.
public struct DecimalAmount: Sendable, Hashable, CustomStringConvertible {
    /// The decimal text, exactly as it was given.
    public let text: String

    /// Validates `text` and keeps it unchanged.
    ///
    /// - Parameter text: Decimal text such as `"15840.01"` or `"-0.5"`.
    /// - Throws: ``InvalidDecimalText`` when `text` is not a plain decimal
    ///   number.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    public init(_ text: String) throws(InvalidDecimalText) {
        guard Self.isPlainDecimal(text) else { throw InvalidDecimalText(text: text) }
        self.text = text
    }

    /// The same number as a `Decimal`, for arithmetic.
    ///
    /// `Decimal` holds 38 significant digits: longer text is rounded here,
    /// while ``text`` stays exact. `nil` when the number is beyond
    /// `Decimal`'s range (about 10^165).
    public var decimalValue: Decimal? {
        Decimal(string: text, locale: nil)
    }

    /// The decimal text, exactly as it was given.
    public var description: String { text }

    private static func isPlainDecimal(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integerDigits = bytes.prefix(while: isDigit)
        guard !integerDigits.isEmpty else { return false }
        bytes = bytes.dropFirst(integerDigits.count)
        if bytes.isEmpty { return true }
        guard bytes.first == UInt8(ascii: ".") else { return false }
        let fraction = bytes.dropFirst()
        return !fraction.isEmpty && fraction.allSatisfy(isDigit)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// The error thrown when text is not a plain decimal number.
public struct InvalidDecimalText: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rejected text.
    public let text: String

    /// One line naming the rejected text and the expected form.
    public var description: String {
        "\"\(text.singleLine)\" is not a decimal number: expected digits with an optional \"-\" and \".\", e.g. \"15840.01\""
    }
}
