import Foundation
import PluginBoundary
import Testing

@testable import PluginHost

/// The path helpers that stand in for Foundation's NSString path methods
/// in the host.
@Suite("Path helpers")
struct FilePathsTests {
    @Test("join puts exactly one slash between directory and name", arguments: [
        (directory: "/a/b", name: "x.so", joined: "/a/b/x.so"),
        (directory: "/a/b/", name: "x.so", joined: "/a/b/x.so"),
        (directory: "/", name: "x.so", joined: "/x.so"),
        (directory: "", name: "x.so", joined: "x.so"),
    ])
    func join(directory: String, name: String, joined: String) {
        #expect(FilePaths.join(directory, name) == joined)
    }

    @Test("directory(of:) is the folder part, as dirname prints it", arguments: [
        (path: "/a/b/x.so", directory: "/a/b"),
        (path: "/a/b/", directory: "/a"),
        (path: "/x.so", directory: "/"),
        (path: "/", directory: "/"),
        (path: "x.so", directory: "."),
        (path: "plugins/x.so", directory: "plugins"),
    ])
    func directory(path: String, directory: String) {
        #expect(FilePaths.directory(of: path) == directory)
    }

    @Test("names(in:) lists a directory without . and .., and says why one cannot be read")
    func names() throws {
        let directory = try TemporaryDirectory.make().path
        for name in ["b.so", "a.so"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()))
        }
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
        #expect(try FilePaths.names(in: directory).sorted() == ["a.so", "b.so", "sub"])
        #expect(try FileFacts.of(path: directory + "/sub").kind == .directory)
        #expect(try FileFacts.of(path: directory + "/a.so").kind == .regular)

        let error = #expect(throws: SystemError.self) { try FilePaths.names(in: directory + "/missing") }
        #expect(error?.reason == "No such file or directory")
    }

    @Test("resolved(_:) follows symlinks, and keeps a dangling one as it is")
    func resolved() throws {
        let directory = try TemporaryDirectory.make().path
        let real = FilePaths.resolved(directory)
        #expect(FileManager.default.createFile(atPath: directory + "/target.so", contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.so", withDestinationPath: "target.so")
        try FileManager.default.createSymbolicLink(atPath: directory + "/dangling.so", withDestinationPath: "gone.so")
        #expect(FilePaths.resolved(directory + "/link.so") == real + "/target.so")
        #expect(FilePaths.resolved(directory + "/dangling.so") == directory + "/dangling.so")
    }
}
