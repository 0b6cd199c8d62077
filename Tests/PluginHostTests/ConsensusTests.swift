@testable import PluginHost
import Testing

/// The median and spread of several sources, on the exact decimal text.
@Suite("Consensus of several sources")
struct ConsensusTests {
    @Test("An odd count's median is the middle amount as its source sent it")
    func oddCount() throws {
        let consensus = try #require(Consensus(amounts: ["3.50", "1.00", "2.00"]))
        #expect(consensus.median == "2.00")
        // (3.50 − 1.00) ÷ 2.00 = 125 %
        #expect(consensus.spread == "125.00")
    }

    @Test("An even count's median is the exact mean of the two middle amounts", arguments: [
        (["1.00", "2.00"], "1.50"),
        (["1.5", "2"], "1.75"),
        (["2.00", "3.50", "1.00", "10"], "2.75"),
        (["0.01", "0.02"], "0.015"),
        (["-1", "-2"], "-1.5"),
        (["-1", "1"], "0"),
    ])
    func evenCount(amounts: [String], median: String) throws {
        #expect(try #require(Consensus(amounts: amounts)).median == median)
    }

    @Test("25-digit amounts stay exact, where a Double keeps 17")
    func longAmounts() throws {
        let consensus = try #require(Consensus(amounts: ["2718.281828459045235360287", "2718.281828459045235360289"]))
        #expect(consensus.median == "2718.281828459045235360288")
        #expect(consensus.spread == "0.00")
        let odd = try #require(Consensus(amounts: ["2718.281828459045235360287", "1.0", "99999999999999999999999.99"]))
        #expect(odd.median == "2718.281828459045235360287")
    }

    @Test("40-digit amounts, the most a plugin may send, add without overflow")
    func widestAmounts() throws {
        let nines = String(repeating: "9", count: 40)
        let consensus = try #require(Consensus(amounts: [nines, nines]))
        #expect(consensus.median == nines)
        #expect(consensus.spread == "0.00")
    }

    @Test("The spread rounds half away from zero to two decimals", arguments: [
        (["100", "100", "100.005"], "0.01"),  // 0.005 %, half rounded up
        (["100", "100", "100.004"], "0.00"),  // 0.004 %
        (["-100", "-100", "-100.005"], "0.01"),
        (["3", "3", "4"], "33.33"),
        (["3", "3", "5"], "66.67"),
        (["1", "2", "3"], "100.00"),
    ])
    func spreadRounding(amounts: [String], spread: String) throws {
        #expect(try #require(Consensus(amounts: amounts)).spread == spread)
    }

    @Test("A negative median is measured by its magnitude")
    func negativeMedian() throws {
        let consensus = try #require(Consensus(amounts: ["-2", "-1", "-3"]))
        #expect(consensus.median == "-2")
        #expect(consensus.spread == "100.00")
        #expect(consensus.exceeds(try #require(SpreadLimit(percent: "99.99"))))
        #expect(!consensus.exceeds(try #require(SpreadLimit(percent: "100"))))
    }

    @Test("Around a median of zero, equal amounts agree and different ones have no spread")
    func zeroMedian() throws {
        let agreed = try #require(Consensus(amounts: ["0.00", "0", "0.0"]))
        #expect(agreed.median == "0")
        #expect(agreed.spread == "0.00")
        #expect(!agreed.exceeds(try #require(SpreadLimit(percent: "0"))))

        let apart = try #require(Consensus(amounts: ["-1", "0", "1"]))
        #expect(apart.median == "0")
        #expect(apart.spread == nil)
        #expect(apart.exceeds(try #require(SpreadLimit(percent: "1000000"))))
    }

    @Test("--max-spread compares exactly, not the rounded spread")
    func exactLimit() throws {
        // 0.005 % shows as 0.01, and does not exceed a limit of 0.005.
        let consensus = try #require(Consensus(amounts: ["100", "100", "100.005"]))
        #expect(consensus.spread == "0.01")
        #expect(!consensus.exceeds(try #require(SpreadLimit(percent: "0.005"))))
        #expect(consensus.exceeds(try #require(SpreadLimit(percent: "0.0049"))))
        // 0.004 % shows as 0.00, and still exceeds a limit of 0.
        let small = try #require(Consensus(amounts: ["100", "100", "100.004"]))
        #expect(small.spread == "0.00")
        #expect(small.exceeds(try #require(SpreadLimit(percent: "0"))))
        // Exactly at the limit is not above it.
        let exact = try #require(Consensus(amounts: ["1.00", "2.00", "3.50"]))
        #expect(!exact.exceeds(try #require(SpreadLimit(percent: "125"))))
        #expect(exact.exceeds(try #require(SpreadLimit(percent: "124.999999"))))
    }

    @Test("One amount is its own median, with no spread to speak of")
    func oneAmount() throws {
        let consensus = try #require(Consensus(amounts: ["100000.10"]))
        #expect(consensus.median == "100000.10")
        #expect(consensus.spread == "0.00")
    }

    @Test("No amounts, or text that is not a decimal, give no consensus", arguments: [[], ["1", "1e5"], ["abc"], ["1."]])
    func noConsensus(amounts: [String]) {
        #expect(Consensus(amounts: amounts) == nil)
    }

    @Test("A spread limit is a plain, non-negative decimal", arguments: ["-1", "", "1%", "1e2", "five"])
    func badLimits(text: String) {
        #expect(SpreadLimit(percent: text) == nil)
    }

    @Test("Exact decimals read and write plain text, keeping their scale", arguments: [
        ("007.50", "7.50"), ("-0.00", "0.00"), ("0", "0"), ("-12.5", "-12.5"), ("0.000001", "0.000001"),
    ])
    func exactDecimalText(text: String, written: String) throws {
        #expect(try #require(ExactDecimal(text)).description == written)
    }

    @Test("Exact decimals of different scales compare by value")
    func exactDecimalOrder() throws {
        let values = try ["2.00", "-3", "2", "10.5", "-3.01", "0.1"].map { try #require(ExactDecimal($0)) }
        #expect(values.sorted().map(\.description) == ["-3.01", "-3", "0.1", "2.00", "2", "10.5"])
        #expect(try #require(ExactDecimal("2.0")) == #require(ExactDecimal("2")))
    }
}
