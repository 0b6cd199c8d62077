#if FUZZING
import CFuzzerDriver
import FuzzTargets
import Glibc
import Synchronization

/// Hands one target to libFuzzer.
enum LibFuzzer {
    /// The target being fuzzed: libFuzzer's callback is a C function and
    /// can capture nothing.
    private static let current = Mutex<FuzzTarget?>(nil)

    /// Fuzzes `target` with the process's arguments until libFuzzer stops.
    static func run(_ target: FuzzTarget) -> Never {
        current.withLock { $0 = target }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
            do {
                try LibFuzzer.current.withLock { $0 }?.run(bytes)
            } catch {
                // NB: a trap on purpose: it is how a fuzzer reports a finding,
                // and libFuzzer keeps the input as it keeps any crash's.
                fatalError("property violated: \(error)")
            }
            return 0
        })
    }
}
#endif
