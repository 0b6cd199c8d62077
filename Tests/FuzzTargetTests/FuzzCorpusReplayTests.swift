import Foundation
import FuzzTargets
import Testing

/// The fuzz targets' seed corpora and every input that ever failed a
/// target, run through the same code the fuzzer runs (docs/FUZZING.md).
///
/// A crash in the code under test ends this process, as it ended the
/// fuzzer: that, too, fails the suite.
@Suite("Fuzz corpora replay")
struct FuzzCorpusReplayTests {
    /// `Fuzz/` at the repository's root.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fuzz")

    // NB: a release build without `-enable-testing` has no targets (see
    // FuzzTarget.all); `swift test` in debug, the README's, has them all.
    @Test("Every target has a seed corpus, and every corpus folder names a target", .enabled(if: !FuzzTarget.all.isEmpty))
    func corporaMatchTargets() throws {
        let names = Set(FuzzTarget.all.map(\.name))
        let corpora = try FileManager.default.contentsOfDirectory(atPath: Self.root.appending(path: "Corpus").path)
        #expect(Set(corpora) == names)
        for name in names {
            #expect(!Self.inputs(of: name, in: "Corpus").isEmpty, "\(name) has seeds")
        }
        let regressions = (try? FileManager.default.contentsOfDirectory(atPath: Self.root.appending(path: "Regressions").path)) ?? []
        #expect(Set(regressions).isSubset(of: names))
    }

    @Test("Every seed, and every input that ever failed a target, passes it", arguments: FuzzTarget.all.map(\.name))
    func replay(name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        for folder in ["Corpus", "Regressions"] {
            for file in Self.inputs(of: name, in: folder) {
                let bytes = try [UInt8](Data(contentsOf: file))
                do {
                    try target.run(bytes)
                } catch {
                    Issue.record("\(folder)/\(name)/\(file.lastPathComponent): \(error)")
                }
            }
        }
    }

    /// The files in `Fuzz/<folder>/<name>`, sorted; none when it does not exist.
    static func inputs(of name: String, in folder: String) -> [URL] {
        let directory = root.appending(path: folder).appending(path: name)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appending(path: $0) }
    }
}
