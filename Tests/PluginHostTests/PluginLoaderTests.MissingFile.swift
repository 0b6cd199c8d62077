import Glibc
import PluginBoundary
import Testing

@testable import PluginHost

/// A file that is not there gets its own line: the loader's advice for an
/// unreadable library ("remove it … or rebuild it") does not fit a typo.
extension PluginLoaderTests {
    @Test("A missing file says so; another open error keeps the library advice")
    func missingFileSaysSo() {
        let missing = PluginLoadError(.unreadable(SystemError(operation: "open", errno: ENOENT)))
        let denied = PluginLoadError(.unreadable(SystemError(operation: "open", errno: EACCES)))
        #expect(missing.description == "there is no such file: check the path")
        #expect(denied.description != missing.description)
        #expect(denied.description.contains("Permission denied"), "\(denied.description)")
    }
}
