import Foundation
import Testing

/// What the host believed of a fetcher's rank, as `list-fetchers` and
/// `inspect` show it: the rank declared, the rank `fetch` uses, and why they
/// differ (issue 37 §5).
@Suite("Declared and effective ranks", .timeLimit(.minutes(10)))
struct BelievedRanksEndToEndTests {
    /// A stranger that declares the primary rank and an API base.
    static let ranked = FixturePlugins.Fixture(
        fileName: "ranked.so",
        defines: [
            "-DFIXTURE_RANK=256", "-DFIXTURE_NAME=\"RankedPlugin\"", "-DFIXTURE_SYMBOL=\"RANKD\"", "-DFIXTURE_AMOUNT=\"1.00\"",
            "-DFIXTURE_API_BASE=\"https://ranked.example.invalid/v1\"",
        ])

    private func rows(_ stdout: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]], "\(stdout)")
    }

    @Test("list-fetchers shows a stranger's declared 256 as 128, capped, in JSON and in the table")
    func strangerIsCapped() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.ranked])
        let file = directory.appending(path: "ranked.so").path

        // From ./plugins, one of the usual directories, beside the bundled plugins.
        let work = directory.deletingLastPathComponent()
        let json = try await CommandRunner.host(["list-fetchers", "--format", "json"], in: work)
        #expect(json.status == 0, "\(json.stderr)")
        let row = try #require(try rows(json.stdout).first { $0["symbol"] as? String == "RANKD" })
        #expect(row["rank"] as? Int == 128)
        #expect(row["declaredRank"] as? Int == 256)
        #expect(row["rankReason"] as? String == "capped: nobody vouched for it")
        #expect(row["plugin"] as? String == "RankedPlugin")
        #expect(row["vouchedBy"] as? String == "nobody")
        let ethereum = try #require(try rows(json.stdout).first { $0["plugin"] as? String == "EthereumPlugin" })
        #expect(ethereum["rank"] as? Int == 256 && ethereum["declaredRank"] as? Int == 256)
        #expect(ethereum["rankReason"] == nil)

        let table = try await CommandRunner.host(["list-fetchers"], in: work)
        #expect(table.stdout.contains("RankedPlugin (unvouched, \(file))  128 (declared 256, capped: nobody vouched for it)  yes\n"), "\(table.stdout)")
        #expect(table.stdout.replacing(#/ {2,}/#, with: "|").contains("|EthereumPlugin|256|yes\n"), "\(table.stdout)")
    }

    @Test("HOST_RANKS shows as the reason, by name for a bundled plugin and by file for a stranger")
    func overridesAreNamed() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.ranked])
        let file = directory.appending(path: "ranked.so").path

        let output = try await CommandRunner.host(
            ["list-fetchers", "--format", "json"], environment: ["HOST_RANKS": "EthereumPlugin:64,\(file):32"], in: directory.deletingLastPathComponent())

        #expect(output.status == 0, "\(output.stderr)")
        let rows = try rows(output.stdout)
        let ethereum = try #require(rows.first { $0["plugin"] as? String == "EthereumPlugin" })
        #expect(ethereum["rank"] as? Int == 64 && ethereum["declaredRank"] as? Int == 256)
        #expect(ethereum["rankReason"] as? String == "HOST_RANKS")
        let ranked = try #require(rows.first { $0["symbol"] as? String == "RANKD" })
        #expect(ranked["rank"] as? Int == 32 && ranked["declaredRank"] as? Int == 256)
        #expect(ranked["rankReason"] as? String == "HOST_RANKS")
    }

    @Test("inspect shows each fetcher's declared and effective rank, and the API base declared and told")
    func inspectShowsWhatTheHostBelieved() async throws {
        let directory = try await FixturePlugins.directory(containing: [Self.ranked])
        let file = directory.appending(path: "ranked.so").path

        let json = try await CommandRunner.host(["inspect", file, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let inspection = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let fetchers = try #require(inspection["fetchers"] as? [[String: Any]])
        #expect(fetchers.count == 1)
        #expect(fetchers.first?["symbol"] as? String == "RANKD")
        #expect(fetchers.first?["declaredRank"] as? Int == 256)
        #expect(fetchers.first?["rank"] as? Int == 128)
        #expect(fetchers.first?["rankReason"] as? String == "capped: nobody vouched for it")
        #expect(inspection["declaredAPIBaseURL"] as? String == "https://ranked.example.invalid/v1")
        #expect(inspection["apiBaseURL"] as? String != nil)

        let table = try await CommandRunner.host(["inspect", file], environment: ["HOST_RANKS": "\(file):16"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("  RANKD   Dogecoin (C)  16 (declared 256, HOST_RANKS)\n"), "\(table.stdout)")
        #expect(table.stdout.contains("API base\n  declared  https://ranked.example.invalid/v1\n  told      "), "\(table.stdout)")
    }
}
