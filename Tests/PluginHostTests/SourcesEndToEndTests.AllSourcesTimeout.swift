import Foundation
import Testing

/// `--all-sources` asks every source at once, so each gets the whole
/// `--timeout`, not a share of it: a source that never answers is reported
/// with all of it, wherever it stands. The host's own words are the clock.
extension SourcesEndToEndTests {
    // NB: --timeout 30 is under test here; the clock is the budget the host names, not the wall.
    @Test("With --all-sources, a source that never answers is given the whole --timeout, at every position", arguments: [0, 2])
    func allSourcesGetTheWholeTimeout(position: Int) async throws {
        let fixtures = Self.threeNames.indices.map { index in
            index == position ? Self.source(Self.threeNames[index], ["-DFIXTURE_NEVER_CALLS_BACK"]) : Self.answering(Self.threeNames[index], "3.00")
        }

        let output = try await Self.vouchedFetch(fixtures, ["--all-sources", "--timeout", "30"])

        let silent = Self.threeNames[position]
        // The failure is a row of the table or a line of stderr, whichever the host shows it in.
        let lines = (output.stdout + "\n" + output.stderr).split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.contains("\(silent) never answered within") }, "\(output.stdout)\(output.stderr)")
        let budget = try #require(Self.budget(in: line), "\(line)")
        #expect(budget == 30, "\(silent) at position \(position) was given \(budget) s of --timeout 30 under --all-sources")
        #expect(output.status == 0, "\(output.stderr)")
    }
}
