import PluginBoundary
import Testing

/// Which library a failed `dlopen` names, for the loader to take from the
/// host's Swift runtime directory (``SwiftRuntime``): a bare file name
/// only, so nothing outside that directory is ever opened from it.
@Suite("The Swift runtime's libraries a plugin may take")
struct SwiftRuntimeTests {
    @Test("A missing library named by its file name is the one to take from the runtime directory")
    func bareFileName() {
        #expect(SwiftRuntime.missingLibrary(in: "libswift_Concurrency.so: cannot open shared object file: No such file or directory") == "libswift_Concurrency.so")
    }

    @Test(
        "A library named by a path, and any other failure, names nothing to take",
        arguments: [
            "../../../tmp/evil/libswiftCore.so: cannot open shared object file: No such file or directory",
            "/tmp/evil/libx.so: cannot open shared object file: No such file or directory",
            "..: cannot open shared object file: No such file or directory",
            "cannot open shared object file: No such file or directory",
            "libx.so: cannot open shared object file: Permission denied",
            "libx.so: invalid ELF header",
        ])
    func nothingElse(message: String) {
        #expect(SwiftRuntime.missingLibrary(in: message) == nil)
    }
}
