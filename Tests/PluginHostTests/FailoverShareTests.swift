@testable import PluginHost
import Testing

/// How failover shares `--timeout`: the vouched sources among themselves,
/// the strangers only what the vouched ones leave.
@Suite("Failover's time shares")
struct FailoverShareTests {
    @Test("A vouched source shares the time left with the vouched sources after it only, whatever the number of strangers",
          arguments: [0, 1, 4, 20])
    func vouchedShare(strangers: Int) {
        let vouched = [true, true] + Array(repeating: false, count: strangers)
        #expect(Failover.sharing(from: 0, vouched: vouched) == 2)
        #expect(Failover.sharing(from: 1, vouched: vouched) == 1)
    }

    @Test("A stranger, from every position, shares what is left with the strangers after it", arguments: 2..<6)
    func strangerShare(position: Int) {
        let vouched = [true, true, false, false, false, false]
        #expect(Failover.sharing(from: position, vouched: vouched) == 6 - position)
    }

    @Test("With nobody vouched for, every source gets an equal share, as before", arguments: 0..<3)
    func onlyStrangers(position: Int) {
        #expect(Failover.sharing(from: position, vouched: [false, false, false]) == 3 - position)
    }
}
