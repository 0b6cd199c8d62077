import Foundation
import Testing

/// Each source's share of `--timeout`, and hedging, from every position of
/// three sources the user vouched for (so that the shares are the equal
/// ones every vouched source gets). The host's own words are the clock: a
/// source that never answers is reported with the time it was given.
extension SourcesEndToEndTests {
    static let threeNames = ["AlphaPlugin", "BetaPlugin", "GammaPlugin"]

    /// The seconds in "… never answered within 9.9 s, …", or nil.
    static func budget(in line: String) -> Double? {
        guard let start = line.range(of: "never answered within ")?.upperBound, let end = line[start...].range(of: " s,")?.lowerBound else { return nil }
        return Double(line[start..<end])
    }

    // NB: --timeout 30 is under test here; the clock is the budget the host names, not the wall.
    @Test("Without a hedge, the source at each position gets an equal share of the time left, and the last one all of it", arguments: [0, 1, 2])
    func timeShareFromEveryPosition(position: Int) async throws {
        // Before `position`, sources that fail at once; at it, one that never answers; after it, ones that answer.
        let fixtures = Self.threeNames.indices.map { index in
            index < position ? Self.source(Self.threeNames[index], [#"-DFIXTURE_FAILS="down""#])
                : index == position ? Self.source(Self.threeNames[index], ["-DFIXTURE_NEVER_CALLS_BACK"])
                : Self.answering(Self.threeNames[index], "3.00")
        }

        let output = try await Self.vouchedFetch(fixtures, ["--timeout", "30"])

        let silent = Self.threeNames[position]
        let line = try #require(output.stderrLines.first { $0.contains("\(silent) never answered within") }, "\(output.stderr)")
        let budget = try #require(Self.budget(in: line), "\(line)")
        let share = 30.0 / Double(Self.threeNames.count - position)
        // The sources before it took a moment to fail, which comes off the time left; never a share of another position.
        #expect(budget <= share && budget > share * 0.75, "\(silent) at position \(position) was given \(budget) s, not its share of \(share) s")
        #expect(output.status == (position == 2 ? 1 : 0), "\(output.stderr)")
    }

    @Test("With a hedge, a slow source at every position is hedged by the next, so the first that answers wins", arguments: [1, 2])
    func hedgeFromEveryPosition(position: Int) async throws {
        // Sources before `position` never answer; the one at it answers at once.
        let fixtures = Self.threeNames.indices.map { index in
            index < position ? Self.source(Self.threeNames[index], ["-DFIXTURE_NEVER_CALLS_BACK"]) : Self.answering(Self.threeNames[index], "\(index).00")
        }

        let output = try await Self.vouchedFetch(fixtures, ["--timeout", "30", "--hedge", "1"])

        #expect(output.status == 0, "\(output.stderr)")
        #expect(Self.answerer(output) == Self.threeNames[position], "\(output.stdout)\(output.stderr)")
    }
}
