import Foundation
import Testing

@testable import HostCommand
@testable import PluginHost

@Suite("Lock file format")
struct PluginLockTests {
    static let a = String(repeating: "a", count: 64)
    static let b = String(repeating: "0123456789abcdef", count: 4)

    @Test("sha256sum lines map names beside the lock file, and absolute names, to digests")
    func parsesSha256sumLines() throws {
        let text = """
            # written by hand
            \(Self.a)  libA.so

            \(Self.b.uppercased()) */opt/plugins/libB.so
            """
        let lock = try PluginLock.parse(text, path: "/srv/plugins/plugins.lock")
        #expect(lock.expectedDigest(for: "/srv/plugins/libA.so") == Self.a)
        #expect(lock.expectedDigest(for: "/opt/plugins/libB.so") == Self.b)
        #expect(lock.expectedDigest(for: "/srv/plugins/libB.so") == nil)
    }

    @Test("CRLF line endings, as a Windows editor saves them, lock every file")
    func crlfLines() throws {
        // Found by the lock-file fuzz target: "\r\n" is one Character, so
        // the file was read as one line naming "libA.so\r\n…".
        let lock = try PluginLock.parse("\(Self.a)  libA.so\r\n\(Self.b)  libB.so\r\n", path: "/srv/plugins/plugins.lock")
        #expect(lock.expectedDigest(for: "/srv/plugins/libA.so") == Self.a)
        #expect(lock.expectedDigest(for: "/srv/plugins/libB.so") == Self.b)
    }

    @Test("Names keep their spaces")
    func namesWithSpaces() throws {
        let lock = try PluginLock.parse("\(Self.a)  my plugin.so\n", path: "/srv/p/plugins.lock")
        #expect(lock.expectedDigest(for: "/srv/p/my plugin.so") == Self.a)
    }

    @Test("A malformed line is reported by number, and refuses everything the lock covers", arguments: [
        "abc  libA.so", "\(String(repeating: "a", count: 64)) libA.so", "\(String(repeating: "g", count: 64))  libA.so",
        "\(String(repeating: "a", count: 64))  ",
    ])
    func malformedLine(line: String) {
        #expect(throws: LockFileError(path: "/p/plugins.lock", .malformed(line: 2))) {
            try PluginLock.parse("\(Self.a)  ok.so\n\(line)\n", path: "/p/plugins.lock")
        }
        let error = LockFileError(path: "/p/plugins.lock", .malformed(line: 2))
        #expect(error.message(naming: .host)
            == "refused (lock file): line 2 of /p/plugins.lock is not `<sha256 hex>  <file name>`; fix the line, or write it again with `sha256sum`")
        let allowlist = LockFileError(path: "/p/allowed.lock", role: .allowlist, .malformed(line: 2))
        #expect(allowlist.message(naming: .host)
            == "refused (lock file): line 2 of /p/allowed.lock is not `<sha256 hex>  <file name>`; fix the line, or write it again with `host lock-plugins`")
        #expect(allowlist.description.hasSuffix("fix the line, or write it again with the program's lock command"))
    }

    @Test("A file listed twice is an error naming both lines")
    func duplicate() {
        #expect(throws: LockFileError(path: "/p/plugins.lock", .duplicate(name: "x.so", lines: (1, 3)))) {
            try PluginLock.parse("\(Self.a)  x.so\n\(Self.b)  y.so\n\(Self.b)  x.so\n", path: "/p/plugins.lock")
        }
    }

    @Test("render writes sorted sha256sum lines")
    func render() {
        #expect(PluginLock.render([(Self.b, "z.so"), (Self.a, "a.so")]) == "\(Self.a)  a.so\n\(Self.b)  z.so\n")
    }

    @Test("A plugin beside the lock file is named bare; one elsewhere by its absolute path")
    func entryNames() throws {
        let directory = try TemporaryDirectory.make().path
        #expect(PluginLock.entryName(for: directory + "/x.so", inLockAt: directory + "/plugins.lock") == "x.so")
        #expect(PluginLock.entryName(for: "/opt/y.so", inLockAt: directory + "/plugins.lock") == "/opt/y.so")
    }
}
