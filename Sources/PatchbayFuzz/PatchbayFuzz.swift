import FuzzTargets
import Glibc
import PluginHost

/// Runs the fuzz targets (docs/FUZZING.md).
///
/// Built by `scripts/fuzz.sh` (with `-DFUZZING` and libFuzzer linked), it is
/// a fuzzer: `PATCHBAY_FUZZ_TARGET=NAME PatchbayFuzz [libFuzzer arguments]`.
/// In a normal build it replays saved inputs without the fuzzer:
/// `PatchbayFuzz NAME FILE_OR_DIRECTORY...`. Either way, `--list` names
/// the targets.
@main
struct PatchbayFuzz {
    static func main() {
        #if FUZZING
        let name = getenv("PATCHBAY_FUZZ_TARGET").map { String(cString: $0) }
        if name == "--list" { list() }
        guard let target = name.flatMap(FuzzTarget.named) else {
            fail("set PATCHBAY_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))", code: 64)
        }
        LibFuzzer.run(target)
        #else
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--list"] { list() }
        guard arguments.count > 1, let target = FuzzTarget.named(arguments[0]) else {
            fail("usage: PatchbayFuzz --list | PatchbayFuzz TARGET FILE_OR_DIRECTORY...; targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))", code: 64)
        }
        exit(Replay.run(target, paths: arguments.dropFirst()))
        #endif
    }

    /// Prints each target's name and summary, then exits.
    private static func list() -> Never {
        guard !FuzzTarget.all.isEmpty else { fail("this build has no targets: build it in debug, or with scripts/fuzz.sh", code: 69) }
        for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        exit(0)
    }

    /// Prints `message` to standard error and exits with `code`.
    static func fail(_ message: String, code: Int32) -> Never {
        StandardError.write("PatchbayFuzz: \(message)\n")
        exit(code)
    }
}
