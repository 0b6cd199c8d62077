import Foundation
import PriceKit
import Testing

@Suite struct DecimalAmountTests {
    @Test(arguments: [
        "2718.281828459045235360287",
        "100000.10",
        "100000.01",
        "9999999.76",
        "0",
        "0.00000001",
        "-0.5",
        "007.50",
        "123456789012345678901234567890123456789012345678901234567890.1",
    ])
    func keepsTheTextExactlyAsGiven(text: String) throws {
        let amount = try DecimalAmount(text)
        #expect(amount.text == text)
        #expect(amount.description == text)
    }

    @Test(arguments: [
        "", "-", ".", "1.", ".5", "+1", "1e5", "1E-2", " 1", "1 ", "1,000.00",
        "1.2.3", "NaN", "Infinity", "0x1F", "--1", "١٢٣", "1_000", "12\n",
    ])
    func rejectsTextThatIsNotAPlainDecimal(text: String) {
        let error = #expect(throws: InvalidDecimalText.self) { try DecimalAmount(text) }
        #expect(error?.text == text)
        #expect(error?.description.contains("\n") == false)
    }

    @Test func invalidTextErrorNamesTheTextAndTheExpectedForm() {
        let error = #expect(throws: InvalidDecimalText.self) { try DecimalAmount("12,5") }
        #expect(error?.description == #""12,5" is not a decimal number: expected digits with an optional "-" and ".", e.g. "15840.01""#)
    }

    @Test func equalityIsTextualSoTrailingZerosMatter() throws {
        #expect(try DecimalAmount("100000.10") != DecimalAmount("100000.1"))
        #expect(try DecimalAmount("100000.10") == DecimalAmount("100000.10"))
    }

    @Test func decimalValueIsTheSameNumber() throws {
        #expect(try DecimalAmount("100000.10").decimalValue == Decimal(string: "100000.1"))
        #expect(try DecimalAmount("2718.281828459045235360287").decimalValue?.description == "2718.281828459045235360287")
        #expect(try DecimalAmount("-0.5").decimalValue == Decimal(-0.5))
    }

    @Test func decimalValueIsNilBeyondDecimalsRange() throws {
        #expect(try DecimalAmount("1" + String(repeating: "0", count: 200)).decimalValue == nil)
    }

    @Test func decodesFromAJSONStringAndEncodesBackUnchanged() throws {
        let decoded = try JSONDecoder().decode([DecimalAmount].self, from: Data(#"["2718.281828459045235360287","100000.10"]"#.utf8))
        #expect(decoded.map(\.text) == ["2718.281828459045235360287", "100000.10"])
        let encoded = String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self)
        #expect(encoded == #"["2718.281828459045235360287","100000.10"]"#)
    }

    @Test(arguments: ["[100000.10]", "[15840]", "[1e3]"])
    func refusesAJSONNumberBecauseItsTextIsAlreadyLost(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([DecimalAmount].self, from: Data(json.utf8))
        }
    }

    @Test(arguments: [#"["1e5"]"#, "[true]", "[null]", #"[{"amount":"1"}]"#])
    func refusesOtherJSONThatIsNotADecimalString(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([DecimalAmount].self, from: Data(json.utf8))
        }
    }
}
