import Foundation
import Testing

@testable import PluginHost

/// ``FileNetworking``: `file://` reads that stay beneath their root, read
/// only regular files, and are capped like HTTP bodies.
@Suite("File reads for plugins", .timeLimit(.minutes(10)))
struct FileNetworkingTests {
    /// A root with `v2/spot.json` in it, and `outside/secret.json` beside it.
    struct Layout {
        let root: URL
        let outside: URL

        init() throws {
            let directory = try TemporaryDirectory.make()
            root = directory.appending(path: "base")
            outside = directory.appending(path: "outside")
            for folder in [root.appending(path: "v2"), outside] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try Data(#"{"data":{"amount":"1.00"}}"#.utf8).write(to: root.appending(path: "v2/spot.json"))
            try Data("secret".utf8).write(to: outside.appending(path: "secret.json"))
        }

        func url(_ relative: String) -> URL { URL(filePath: root.path + "/" + relative) }
    }

    func read(_ url: URL, roots: [String], maximumBodySize: Int = 1 << 20) async -> HTTPHop {
        await FileNetworking(roots: roots, maximumBodySize: maximumBodySize).hop(url, timeout: .seconds(1))
    }

    @Test("A file beneath the root is read, and so is its .json sibling when the name has no extension")
    func readsBeneath() async throws {
        let layout = try Layout()
        let body = Array(#"{"data":{"amount":"1.00"}}"#.utf8)
        #expect(await read(layout.url("v2/spot.json"), roots: [layout.root.path]) == .outcome(.response(status: 200, body: body)))
        #expect(await read(layout.url("v2/spot"), roots: [layout.root.path]) == .outcome(.response(status: 200, body: body)))
    }

    @Test("A file whose name begins with a combining mark is beneath its root: paths are compared as bytes, not Characters")
    func combiningMarkAfterSlash() async throws {
        let layout = try Layout()
        let body = Array(#"{"data":{"amount":"2.00"}}"#.utf8)
        try Data(body).write(to: layout.root.appending(path: "\u{2DF7}spot.json"))
        #expect(await read(layout.url("\u{2DF7}spot.json"), roots: [layout.root.path]) == .outcome(.response(status: 200, body: body)))
    }

    @Test("A missing file is a 404 with a Coinbase-shaped body")
    func missing() async throws {
        let layout = try Layout()
        guard case .outcome(.response(let status, _)) = await read(layout.url("v2/none"), roots: [layout.root.path]) else {
            Issue.record("expected a response")
            return
        }
        #expect(status == 404)
    }

    @Test("A path outside every root is refused without opening anything")
    func outsideRoots() async throws {
        let layout = try Layout()
        #expect(await read(URL(filePath: "/etc/passwd"), roots: [layout.root.path])
            == .refused("it is not beneath \(layout.root.path), where the host reads files"))
    }

    @Test("'..' cannot climb out of the root, even where the root is a prefix of the path")
    func dotDot() async throws {
        let layout = try Layout()
        let url = try #require(URL(string: "file://\(layout.root.path)/v2/../../outside/secret.json"))
        #expect(await read(url, roots: [layout.root.path]) == .refused("it leads out of \(layout.root.path), through '..' or a symbolic link"))
    }

    @Test("A symbolic link out of the root is refused; one that stays beneath it is followed")
    func symbolicLinks() async throws {
        let layout = try Layout()
        try FileManager.default.createSymbolicLink(
            atPath: layout.root.appending(path: "v2/out.json").path, withDestinationPath: layout.outside.appending(path: "secret.json").path)
        try FileManager.default.createSymbolicLink(atPath: layout.root.appending(path: "v2/in.json").path, withDestinationPath: "spot.json")
        try FileManager.default.createSymbolicLink(atPath: layout.root.appending(path: "etc").path, withDestinationPath: "/etc")

        #expect(await read(layout.url("v2/out.json"), roots: [layout.root.path])
            == .refused("it leads out of \(layout.root.path), through '..' or a symbolic link"))
        #expect(await read(layout.url("etc/passwd"), roots: [layout.root.path])
            == .refused("it leads out of \(layout.root.path), through '..' or a symbolic link"))
        #expect(await read(layout.url("v2/in.json"), roots: [layout.root.path])
            == .outcome(.response(status: 200, body: Array(#"{"data":{"amount":"1.00"}}"#.utf8))))
    }

    @Test("A named pipe is refused at once, never waited on")
    func namedPipe() async throws {
        let layout = try Layout()
        #expect(mkfifo(layout.root.appending(path: "v2/pipe").path, 0o600) == 0)
        #expect(await read(layout.url("v2/pipe"), roots: [layout.root.path]) == .refused("it is a named pipe, not a regular file"))
    }

    @Test("A device is refused")
    func device() async throws {
        #expect(await read(URL(filePath: "/dev/zero"), roots: ["/dev"]) == .refused("it is a character device, not a regular file"))
    }

    @Test("A file larger than the cap fails as a large HTTP body does")
    func cap() async throws {
        let layout = try Layout()
        try Data(repeating: 0x78, count: 11).write(to: layout.root.appending(path: "v2/big"))
        try Data(repeating: 0x78, count: 10).write(to: layout.root.appending(path: "v2/fits"))
        #expect(await read(layout.url("v2/big"), roots: [layout.root.path], maximumBodySize: 10)
            == .outcome(.failure("response body larger than 10 bytes")))
        #expect(await read(layout.url("v2/fits"), roots: [layout.root.path], maximumBodySize: 10)
            == .outcome(.response(status: 200, body: Array(repeating: 0x78, count: 10))))
    }

    @Test("A root that is a file allows that file, not its .json sibling")
    func fileRoot() async throws {
        let layout = try Layout()
        let file = layout.root.appending(path: "v2/spot.json").path
        try Data("sibling".utf8).write(to: layout.root.appending(path: "v2/only.json"))
        let only = layout.root.appending(path: "v2/only").path
        try Data("x".utf8).write(to: URL(filePath: only))
        #expect(await read(URL(filePath: file), roots: [file]) == .outcome(.response(status: 200, body: Array(#"{"data":{"amount":"1.00"}}"#.utf8))))
        try FileManager.default.removeItem(atPath: only)
        guard case .outcome(.response(404, _)) = await read(URL(filePath: only), roots: [only]) else {
            Issue.record("the .json sibling of a file root was read")
            return
        }
    }

    @Test("get answers a refusal as a failure")
    func getFails() async throws {
        let outcome = await FileNetworking(roots: ["/nonexistent-root"]).get(URL(filePath: "/etc/passwd"), timeout: .seconds(1))
        #expect(outcome == .failure("it is not beneath /nonexistent-root, where the host reads files"))
    }
}
