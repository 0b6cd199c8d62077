import Foundation
@testable import PluginHost
import Testing

/// Where the host finds its pieces, and what it says to restore them, in a
/// checkout's build folder, an installed prefix and anywhere else.
@Suite("Installed layout")
struct InstalledLayoutTests {
    /// Makes `paths` (files, or folders when ending in "/") under a fresh folder.
    static func tree(_ paths: [String]) throws -> String {
        let root = try TemporaryDirectory.make()
        for path in paths {
            let url = root.appending(path: path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data().write(to: url)
            }
        }
        return root.standardized.path
    }

    @Test("An installed host finds its pieces under ../lib/patchbay, and advice names the installer and the prefix")
    func installed() throws {
        let prefix = try Self.tree(["bin/host", "lib/patchbay/libHostHTTP.so", "lib/patchbay/patchbay-worker", "lib/patchbay/plugins/", "include/patchbay/patchbay_plugin.h"])
        let layout = InstalledLayout(executableDirectory: "\(prefix)/bin")

        #expect(layout.kind == .installed(prefix: prefix))
        #expect(layout.bundledPluginsDirectory == "\(prefix)/lib/patchbay/plugins")
        #expect(layout.httpLibrary == "\(prefix)/lib/patchbay/libHostHTTP.so")
        #expect(layout.workerExecutable == "\(prefix)/lib/patchbay/patchbay-worker")
        #expect(layout.pluginHeader == "\(prefix)/include/patchbay/patchbay_plugin.h")
        #expect(layout.checkout == nil)
        #expect(layout.restoreAdvice("it") == "run `scripts/install.sh --prefix \(prefix)` in a Patchbay checkout to restore it")
    }

    @Test("A piece beside the host wins over the installed one")
    func besideFirst() throws {
        let prefix = try Self.tree(["bin/host", "bin/libHostHTTP.so", "lib/patchbay/libHostHTTP.so"])
        let layout = InstalledLayout(executableDirectory: "\(prefix)/bin")

        #expect(layout.httpLibrary == "\(prefix)/bin/libHostHTTP.so")
        // Missing everywhere: the path beside the host, for the message to name.
        #expect(layout.workerExecutable == "\(prefix)/bin/patchbay-worker")
    }

    @Test("A host in a checkout's build folder finds everything beside it, and advice says swift build in that checkout")
    func checkout() throws {
        let checkout = try Self.tree(["Package.swift", "Sources/PluginABI/include/patchbay_plugin.h", "Examples/CPlugin/coinbase_plugin.c", ".build/x86_64-unknown-linux-gnu/debug/"])
        let build = "\(checkout)/.build/x86_64-unknown-linux-gnu/debug"
        let layout = InstalledLayout(executableDirectory: build)

        #expect(layout.kind == .checkout(checkout))
        #expect(layout.bundledPluginsDirectory == build)
        #expect(layout.httpLibrary == "\(build)/libHostHTTP.so")
        #expect(layout.pluginHeader == "\(checkout)/Sources/PluginABI/include/patchbay_plugin.h")
        #expect(layout.cPluginExample == "\(checkout)/Examples/CPlugin/coinbase_plugin.c")
        #expect(layout.restoreAdvice("the bundled plugins") == "run `swift build` in \(checkout) to restore the bundled plugins")
    }

    @Test("A host copied anywhere else has no header and says how to get a working one")
    func elsewhere() throws {
        let folder = try Self.tree(["tools/host"])
        let layout = InstalledLayout(executableDirectory: "\(folder)/tools")

        #expect(layout.kind == .elsewhere)
        #expect(layout.pluginHeader == nil)
        #expect(layout.cPluginExample == nil)
        #expect(layout.bundledPluginsDirectory == "\(folder)/tools")
        #expect(layout.restoreAdvice("it").hasSuffix("so it is not where it looks: run the host from its build folder, or install it with `scripts/install.sh`"))
    }

    @Test("The tests' own build runs from this checkout")
    func running() {
        #expect(InstalledLayout.running.kind == .checkout(FixturePlugins.repositoryRoot.standardized.path))
    }
}
