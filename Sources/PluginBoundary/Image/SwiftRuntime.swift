import CWorkerSandbox
import Glibc

/// The Swift runtime this process runs on, as a place plugins may take
/// their runtime libraries from.
///
/// A Swift plugin needs the runtime libraries of the toolchain that built
/// it (`libswift_Concurrency.so`, `libFoundationEssentials.so`, ...), and
/// finds them through its RUNPATH, which names that toolchain's directory.
/// The host and its worker may run on another copy of the same runtime (an
/// installed host's, `PREFIX/lib/patchbay`), and a worker's root holds only
/// that copy: so a library the plugin needs that the loader cannot find is
/// taken from the directory the running `libswiftCore.so` came from, and
/// from nowhere else. That directory is the host's own, as trusted as the
/// host.
package enum SwiftRuntime {
    /// The directory of the `libswiftCore.so` this process runs on, or nil
    /// when it cannot be told (a statically linked runtime): the directory
    /// a worker's root maps for the runtime (`WorkerRoot`), asked the same way.
    package static let directory: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard pb_sandbox_library_directory("swift_retain", &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// The library a failed `dlopen` could not find, from its `dlerror()`
    /// text ("libX.so: cannot open shared object file: No such file or
    /// directory"): a bare file name, never a path; nil for any other failure.
    package static func missingLibrary(in message: String) -> String? {
        let suffix = ": cannot open shared object file: No such file or directory"
        guard message.hasSuffix(suffix) else { return nil }
        let name = String(message.dropLast(suffix.count))
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return name
    }

    /// Opens the runtime library `name` from ``directory``, and the runtime
    /// libraries it needs in turn, so that a plugin's `dlopen` finds it by
    /// its name among the loaded ones.
    ///
    /// `RTLD_LOCAL`: its symbols serve only those that need it, as they
    /// would had the loader found it by itself.
    /// - Parameters:
    ///   - name: A file name, e.g. `libswift_Concurrency.so`.
    ///   - budget: How many more libraries may be opened on the way; each
    ///     opened one is another loaded, so this ends.
    /// - Returns: Whether it is loaded now.
    package static func open(_ name: String, budget: inout Int) -> Bool {
        guard let directory else { return false }
        let path = directory + "/" + name
        guard access(path, R_OK) == 0 else { return false }
        while budget > 0 {
            budget -= 1
            _ = dlerror()
            if dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) != nil { return true }
            guard let message = dlerror().map({ String(cString: $0) }),
                let next = missingLibrary(in: message), next != name,
                open(next, budget: &budget)
            else { return false }
        }
        return false
    }

    /// How many runtime libraries one plugin load may open: more than a
    /// toolchain's runtime directory holds.
    package static let openingBudget = 64
}
