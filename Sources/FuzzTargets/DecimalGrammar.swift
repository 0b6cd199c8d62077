/// `-?[0-9]+(\.[0-9]+)?`, read the plain way, as the oracle the amount
/// checks are compared with.
/// - Parameter digitCap: The most digits, both sides of the point together; nil for any.
func matchesDecimalGrammar(_ text: String, digitCap: Int?) -> Bool {
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else { return false }
    return digitCap.map { bytes.count - (parts.count - 1) <= $0 } ?? true
}

/// The digits in an amount that matches the grammar.
func decimalDigitCount(_ text: String) -> Int {
    text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }.count
}
