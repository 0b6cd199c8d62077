/// What several sources agree a price is: the median of their amounts, and
/// how far apart they are, both computed on the exact decimal text.
///
/// - The **median** of an odd count is the middle amount, as its source sent
///   it; of an even count, the exact mean of the two middle ones, with the
///   larger of their scales and one decimal more when halving needs it
///   (`1.00` and `2.00` give `1.50`; `1.5` and `2` give `1.75`).
/// - The **spread** is (max − min) ÷ |median| as a percentage, rounded half
///   away from zero to two decimals for display, and compared exactly
///   against a limit. Amounts that are all equal have a spread of `0.00`,
///   whatever the median; amounts that differ around a median of zero have
///   none (`nil`): no percentage measures them, and they exceed any limit.
///   A negative median is measured by its magnitude, so a spread is never
///   negative.
///
/// ```swift
/// let consensus = Consensus(amounts: ["1.00", "2.00", "3.50"])
/// consensus?.median   // "2.00"
/// consensus?.spread   // "125.00"
/// ```
package struct Consensus: Sendable, Equatable {
    /// The median amount, as decimal text.
    package let median: String
    /// The spread as a percentage with two decimals, e.g. `"0.35"`; nil when
    /// the amounts differ around a median of zero.
    package let spread: String?
    /// How many amounts it was computed from.
    package let count: Int
    /// max − min, exactly.
    private let range: ExactDecimal
    /// |median|, exactly.
    private let magnitude: ExactDecimal

    /// The consensus of `amounts`, in any order.
    /// - Parameter amounts: Plain decimal text, e.g. `"2718.28"`, as checked
    ///   by the host when the plugins answered.
    /// - Returns: nil when `amounts` is empty or one is not plain decimal text.
    /// - Complexity: O(*n* log *n*) comparisons of amounts of at most 40 digits.
    package init?(amounts: [String]) {
        var values: [(text: String, value: ExactDecimal, index: Int)] = []
        for (index, text) in amounts.enumerated() {
            guard let value = ExactDecimal(text) else { return nil }
            values.append((text, value, index))
        }
        guard !values.isEmpty else { return nil }
        count = values.count
        // Equal values keep the order given, so the median's text does not depend on the sort.
        values.sort { $0.value < $1.value || ($0.value == $1.value && $0.index < $1.index) }
        let middle = values.count / 2
        let median: ExactDecimal
        if values.count % 2 == 1 {
            median = values[middle].value
            self.median = values[middle].text
        } else {
            median = (values[middle - 1].value + values[middle].value).halved()
            self.median = median.description
        }
        range = values[values.count - 1].value - values[0].value
        magnitude = median.absolute
        spread = range.isZero ? "0.00" : range.percentage(of: magnitude, decimals: 2)?.description
    }

    /// Whether the sources disagree by more than `limit`, compared exactly,
    /// not on the rounded ``spread``.
    /// - Parameter limit: The largest spread accepted.
    /// - Returns: true when the spread is above `limit`, or undefined (the
    ///   amounts differ around a median of zero).
    package func exceeds(_ limit: SpreadLimit) -> Bool {
        range.percentage(of: magnitude, exceeds: limit.percent)
    }
}

/// The largest spread, in percent, that `--max-spread` accepts.
package struct SpreadLimit: Sendable, Equatable, CustomStringConvertible {
    let percent: ExactDecimal

    /// Reads a limit such as `"0.5"` or `"2"`.
    /// - Parameter text: Plain decimal text, not negative.
    /// - Returns: nil for anything else.
    package init?(percent text: String) {
        guard let percent = ExactDecimal(text), !percent.isNegative else { return nil }
        self.percent = percent
    }

    /// The limit as given, e.g. `0.5`.
    package var description: String { percent.description }
}
