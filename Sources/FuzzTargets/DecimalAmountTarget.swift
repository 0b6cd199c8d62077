#if DEBUG || FUZZING
import PluginBoundary
import PriceKit

/// `DecimalAmount`, the SDK's amount, against the grammar and against the
/// host's own amount rule.
///
/// Input: the amount's text.
let decimalAmountTarget = FuzzTarget("decimal-amount", "DecimalAmount and its agreement with the host's amount rule; input: the text") { input throws(PropertyViolation) in
    let text = String(decoding: input.remaining(), as: UTF8.self)
    let amount = try? DecimalAmount(text)
    try expect((amount != nil) == matchesDecimalGrammar(text, digitCap: nil), "an amount is accepted exactly when it is -?[0-9]+(.[0-9]+)?", "\(text.debugDescription) accepted: \(amount != nil)")
    guard let amount else { return }
    try expect(amount.text == text, "an accepted amount keeps its text", amount.text.debugDescription)
    let digits = decimalDigitCount(text)
    // What a plugin sends within the cap, the host takes.
    try expect(PluginOutputRules.isPlainDecimal(text) == (digits <= PluginOutputRules.Limit.amountDigits), "the host accepts every SDK amount within its digit cap", text.debugDescription)
    let value = amount.decimalValue
    try expect(value != nil || digits > 38, "an amount of at most 38 digits has a Decimal value", text.debugDescription)
}
#endif
