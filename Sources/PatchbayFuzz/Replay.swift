#if !FUZZING
import FoundationEssentials
import FuzzTargets

/// Runs saved inputs through a target without the fuzzer: a corpus, or a
/// crash to reproduce under a debugger.
enum Replay {
    /// Runs every file named, and every file in every directory named.
    /// - Returns: The exit code: 0 when every input passed, 1 otherwise.
    static func run(_ target: FuzzTarget, paths: ArraySlice<String>) -> Int32 {
        var count = 0
        var violations = 0
        for path in paths {
            for file in files(at: path) {
                guard let bytes = FileManager.default.contents(atPath: file) else { PatchbayFuzz.fail("cannot read \(file)", code: 66) }
                count += 1
                do {
                    try target.run(Array(bytes))
                } catch {
                    violations += 1
                    print("\(file): \(error)")
                }
            }
        }
        print("\(target.name): \(count) inputs, \(violations) property violations")
        return violations == 0 ? 0 : 1
    }

    /// `path`, or the files in it, sorted, when it is a directory.
    private static func files(at path: String) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { PatchbayFuzz.fail("\(path) does not exist", code: 66) }
        guard isDirectory else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }
}
#endif
