import Foundation
import Testing

@testable import PluginHost

extension FileNetworkingTests {
    // NB: the kernel's RESOLVE_BENEATH would still keep such a read inside
    // the root; this pins the host's own rule, which names the right reason.
    @Test("A sibling whose name starts with the root's is not beneath it: base-secret is outside base")
    func siblingWithTheRootAsPrefix() async throws {
        let layout = try Layout()
        let sibling = layout.root.deletingLastPathComponent().appending(path: layout.root.lastPathComponent + "-secret")
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: sibling.appending(path: "secret.json"))

        #expect(await read(sibling.appending(path: "secret.json"), roots: [layout.root.path])
            == .refused("it is not beneath \(layout.root.path), where the host reads files"))
    }
}
