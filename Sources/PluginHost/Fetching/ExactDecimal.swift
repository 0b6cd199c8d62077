/// A plain decimal number (`-?[0-9]+(\.[0-9]+)?`), held as its digits, for
/// arithmetic on amounts that must stay exact: no `Double`, no `Decimal`
/// (38 digits, and an amount may have 40), no rounding unless asked for.
///
/// Equal values of different scales compare equal (`2.0 == 2.00`), but each
/// keeps its scale: ``description`` writes as many decimals as the text had.
struct ExactDecimal: Sendable, Comparable, CustomStringConvertible {
    /// The unscaled magnitude, least significant digit first, without
    /// leading zeros: empty for zero.
    private let magnitude: [UInt8]
    /// Digits after the point.
    let scale: Int
    /// Whether the value is below zero; never true for zero.
    let isNegative: Bool

    private init(magnitude: [UInt8], scale: Int, isNegative: Bool) {
        let trimmed = Digits.trimmed(magnitude)
        self.magnitude = trimmed
        self.scale = scale
        self.isNegative = isNegative && !trimmed.isEmpty
    }

    /// Reads plain decimal text, e.g. `"-2718.28"`; nil for anything else
    /// (an exponent, a `+`, spaces, a lone `.`).
    /// - Complexity: O(*n*) in the length of `text`.
    init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(Digits.isDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : whole[whole.endIndex...]
        if parts.count == 2 {
            guard !fraction.isEmpty, fraction.allSatisfy(Digits.isDigit) else { return nil }
        }
        let digits = (Array(whole) + Array(fraction)).reversed().map { $0 - UInt8(ascii: "0") }
        self.init(magnitude: digits, scale: fraction.count, isNegative: isNegative)
    }

    /// Zero, with no decimals.
    static let zero = ExactDecimal(magnitude: [], scale: 0, isNegative: false)

    /// Whether the value is zero, at any scale.
    var isZero: Bool { magnitude.isEmpty }

    /// The value as plain decimal text with ``scale`` decimals: `1.50`, `-0.5`, `0`.
    var description: String {
        var digits = magnitude
        while digits.count <= scale { digits.append(0) }
        var text = isNegative ? "-" : ""
        for (position, digit) in digits.enumerated().reversed() {
            text.append(Character(Unicode.Scalar(digit + UInt8(ascii: "0"))))
            if position == scale && scale > 0 { text.append(".") }
        }
        return text
    }

    /// The magnitude, never negative.
    var absolute: ExactDecimal { ExactDecimal(magnitude: magnitude, scale: scale, isNegative: false) }

    /// The same value with `scale` decimals; `scale` must not be below the current one.
    private func rescaled(to scale: Int) -> ExactDecimal {
        ExactDecimal(magnitude: Digits.shifted(magnitude, by: scale - self.scale), scale: scale, isNegative: isNegative)
    }

    /// The exact sum, with the larger of the two scales.
    static func + (left: ExactDecimal, right: ExactDecimal) -> ExactDecimal {
        let scale = max(left.scale, right.scale)
        let (a, b) = (left.rescaled(to: scale), right.rescaled(to: scale))
        if a.isNegative == b.isNegative {
            return ExactDecimal(magnitude: Digits.sum(a.magnitude, b.magnitude), scale: scale, isNegative: a.isNegative)
        }
        // Opposite signs: the larger magnitude gives the sign.
        if Digits.compare(a.magnitude, b.magnitude) >= 0 {
            return ExactDecimal(magnitude: Digits.difference(a.magnitude, b.magnitude), scale: scale, isNegative: a.isNegative)
        }
        return ExactDecimal(magnitude: Digits.difference(b.magnitude, a.magnitude), scale: scale, isNegative: b.isNegative)
    }

    /// The exact difference, with the larger of the two scales.
    static func - (left: ExactDecimal, right: ExactDecimal) -> ExactDecimal {
        left + ExactDecimal(magnitude: right.magnitude, scale: right.scale, isNegative: !right.isNegative)
    }

    /// Half the value, exactly: one decimal more when the last digit is odd.
    func halved() -> ExactDecimal {
        let value = (magnitude.first ?? 0) % 2 == 1 ? rescaled(to: scale + 1) : self
        return ExactDecimal(magnitude: Digits.halved(value.magnitude), scale: value.scale, isNegative: isNegative)
    }

    /// `self ÷ divisor × 100`, rounded half away from zero to `decimals`
    /// decimals, as text; nil when `divisor` is zero.
    func percentage(of divisor: ExactDecimal, decimals: Int) -> ExactDecimal? {
        guard !divisor.isZero else { return nil }
        // (m / 10^s) / (d / 10^t) × 100 × 10^decimals = m × 10^(t + 2 + decimals) / (d × 10^s), with one more digit to round on.
        let numerator = Digits.shifted(magnitude, by: divisor.scale + 2 + decimals + 1)
        let denominator = Digits.shifted(divisor.magnitude, by: scale)
        let quotient = Digits.quotient(numerator, denominator)
        let roundedUp = (quotient.first ?? 0) >= 5
        var result = Array(quotient.dropFirst())
        if roundedUp { result = Digits.sum(result, [1]) }
        return ExactDecimal(magnitude: result, scale: decimals, isNegative: isNegative != divisor.isNegative)
    }

    /// Whether `self ÷ divisor × 100` is above `percent`, compared exactly;
    /// false when `divisor` is zero and `self` is zero too, true when only `divisor` is.
    func percentage(of divisor: ExactDecimal, exceeds percent: ExactDecimal) -> Bool {
        guard !divisor.isZero else { return !isZero }
        // self / divisor × 100 > percent  ⇔  self × 100 > percent × divisor, for a positive divisor.
        let left = ExactDecimal(magnitude: Digits.shifted(magnitude, by: 2), scale: scale, isNegative: isNegative)
        let right = ExactDecimal(magnitude: Digits.product(percent.magnitude, divisor.magnitude), scale: percent.scale + divisor.scale,
                                 isNegative: percent.isNegative != divisor.isNegative)
        return divisor.isNegative ? left < right : left > right
    }

    static func == (left: ExactDecimal, right: ExactDecimal) -> Bool {
        compare(left, right) == 0
    }

    static func < (left: ExactDecimal, right: ExactDecimal) -> Bool {
        compare(left, right) < 0
    }

    private static func compare(_ left: ExactDecimal, _ right: ExactDecimal) -> Int {
        if left.isNegative != right.isNegative { return left.isNegative ? -1 : 1 }
        let scale = max(left.scale, right.scale)
        let order = Digits.compare(left.rescaled(to: scale).magnitude, right.rescaled(to: scale).magnitude)
        return left.isNegative ? -order : order
    }
}

/// Schoolbook arithmetic on unsigned base-10 digit arrays, least significant
/// first. Amounts have at most 40 digits, so quadratic is plenty.
private enum Digits {
    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func trimmed(_ digits: [UInt8]) -> [UInt8] {
        var digits = digits
        while digits.last == 0 { digits.removeLast() }
        return digits
    }

    /// `digits × 10^count`.
    static func shifted(_ digits: [UInt8], by count: Int) -> [UInt8] {
        digits.isEmpty ? [] : [UInt8](repeating: 0, count: count) + digits
    }

    /// -1, 0 or 1.
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        let (left, right) = (trimmed(left), trimmed(right))
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        for index in left.indices.reversed() where left[index] != right[index] {
            return left[index] < right[index] ? -1 : 1
        }
        return 0
    }

    static func sum(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        for index in 0..<max(left.count, right.count) {
            let total = (index < left.count ? left[index] : 0) + (index < right.count ? right[index] : 0) + carry
            result.append(total % 10)
            carry = total / 10
        }
        if carry > 0 { result.append(carry) }
        return trimmed(result)
    }

    /// `left − right`, for `left ≥ right`.
    static func difference(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var borrow = 0
        for index in left.indices {
            var digit = Int(left[index]) - (index < right.count ? Int(right[index]) : 0) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 10 }
            result.append(UInt8(digit))
        }
        return trimmed(result)
    }

    static func product(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        guard !left.isEmpty, !right.isEmpty else { return [] }
        var result = [Int](repeating: 0, count: left.count + right.count)
        for (i, a) in left.enumerated() {
            for (j, b) in right.enumerated() { result[i + j] += Int(a) * Int(b) }
        }
        for index in result.indices.dropLast() {
            result[index + 1] += result[index] / 10
            result[index] %= 10
        }
        return trimmed(result.map { UInt8($0) })
    }

    /// Half of an even number.
    static func halved(_ digits: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: digits.count)
        var remainder: UInt8 = 0
        for index in digits.indices.reversed() {
            let value = remainder * 10 + digits[index]
            result[index] = value / 2
            remainder = value % 2
        }
        return trimmed(result)
    }

    /// `⌊left ÷ right⌋`, for a non-zero `right`: long division, one digit at a time.
    static func quotient(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var quotient = [UInt8](repeating: 0, count: left.count)
        var remainder: [UInt8] = []
        for index in left.indices.reversed() {
            remainder = trimmed([left[index]] + remainder)
            var digit: UInt8 = 0
            while compare(remainder, right) >= 0 {
                remainder = difference(remainder, right)
                digit += 1
            }
            quotient[index] = digit
        }
        return trimmed(quotient)
    }
}
