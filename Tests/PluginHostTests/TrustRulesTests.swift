import Foundation
import Testing

@testable import PluginHost

/// The ownership and permission rules, as a pure function of the `stat`
/// facts and the current user.
///
/// The owner rule is tested here rather than end to end: the suite runs as
/// root, and root is always a trusted owner, so no real file can fail it.
@Suite("Trust rules before loading")
struct TrustRulesTests {
    static let me: UInt32 = 1000
    let rules = TrustRules(currentUser: Self.me)

    static func file(_ permissions: UInt32, owner: UInt32 = me) -> FileFacts {
        FileFacts(kind: .regular, permissions: permissions, owner: owner)
    }

    static func directory(_ permissions: UInt32, owner: UInt32 = me) -> FileFacts {
        FileFacts(kind: .directory, permissions: permissions, owner: owner)
    }

    @Test("A file owned by the current user or by root passes; anyone else's is refused", arguments: [
        (owner: UInt32(1000), passes: true),
        (owner: UInt32(0), passes: true),
        (owner: UInt32(1001), passes: false),
        (owner: UInt32(65534), passes: false),
    ])
    func ownerRule(owner: UInt32, passes: Bool) {
        let violation = rules.violation(of: Self.file(0o755, owner: owner), for: .plugin(path: "/p/x.so"))
        #expect((violation == nil) == passes)
    }

    @Test("Another user's plugin is refused with the uid, and the chown that fixes it")
    func foreignOwnerMessage() throws {
        let violation = try #require(rules.violation(of: Self.file(0o755, owner: 1001), for: .plugin(path: "/p/x.so")))
        #expect(violation.description
            == "refused (owner): it is owned by uid 1001, not by you (uid 1000) or root; if you trust it, run `sudo chown 1000 /p/x.so`")
    }

    @Test("Another user's plugins directory is refused too")
    func foreignDirectory() throws {
        let violation = try #require(rules.violation(of: Self.directory(0o755, owner: 1001), for: .directory(path: "/p")))
        #expect(violation.description
            == "refused (owner): its directory /p is owned by uid 1001, not by you (uid 1000) or root; if you trust it, run `sudo chown 1000 /p`")
    }

    @Test("Root running the host trusts root's files and refuses a user's", arguments: [(UInt32(0), true), (UInt32(1000), false)])
    func rootHost(owner: UInt32, passes: Bool) {
        let rules = TrustRules(currentUser: 0)
        #expect((rules.violation(of: Self.file(0o755, owner: owner), for: .plugin(path: "/p/x.so")) == nil) == passes)
    }

    @Test("Group- or world-writable plugins are refused with the chmod that fixes them", arguments: [
        (UInt32(0o775), "group-writable (mode 0775)", "g"),
        (UInt32(0o757), "world-writable (mode 0757)", "o"),
        (UInt32(0o777), "group- and world-writable (mode 0777)", "go"),
        (UInt32(0o4777), "group- and world-writable (mode 4777)", "go"),
    ])
    func writableByOthers(permissions: UInt32, finding: String, who: String) throws {
        let violation = try #require(rules.violation(of: Self.file(permissions), for: .plugin(path: "/p/x.so")))
        #expect(violation.description
            == "refused (not writable by others): it is \(finding), so other users could replace its code; run `chmod \(who)-w /p/x.so`")
    }

    @Test("Read-only and owner-writable modes pass", arguments: [UInt32(0o755), 0o700, 0o644, 0o444, 0o555])
    func privateModesPass(permissions: UInt32) {
        #expect(rules.violation(of: Self.file(permissions), for: .plugin(path: "/p/x.so")) == nil)
        #expect(rules.violation(of: Self.directory(permissions), for: .directory(path: "/p")) == nil)
    }

    @Test("A plugins directory its group or others can write is refused with the chmod that fixes it", arguments: [
        (UInt32(0o775), "group-writable (mode 0775)", "g"),
        (UInt32(0o770), "group-writable (mode 0770)", "g"),
        (UInt32(0o757), "world-writable (mode 0757)", "o"),
        (UInt32(0o777), "group- and world-writable (mode 0777)", "go"),
        (UInt32(0o1777), "group- and world-writable (mode 1777)", "go"),
    ])
    func writableDirectory(permissions: UInt32, finding: String, who: String) throws {
        let violation = try #require(rules.violation(of: Self.directory(permissions), for: .directory(path: "/p")))
        #expect(violation.description
            == "refused (not writable by others): its directory /p is \(finding), so other users could swap the plugin; run `chmod \(who)-w /p`")
        let target = TrustViolation.Subject.targetDirectory(link: "/p/x.so", target: "/t/real.so", directory: "/t")
        #expect(rules.violation(of: Self.directory(permissions), for: target) != nil, "a symlink target's directory gets the same rule")
    }

    @Test("A sticky world-writable directory such as /tmp is still refused")
    func stickyDirectory() throws {
        let violation = try #require(rules.violation(of: Self.directory(0o1777, owner: 0), for: .directory(path: "/tmp")))
        #expect(violation.description
            == "refused (not writable by others): its directory /tmp is group- and world-writable (mode 1777), so other users could swap the plugin; run `chmod go-w /tmp`")
    }

    @Test("A symlink's target is named in the message and in the fix")
    func symlinkTarget() throws {
        let subject = TrustViolation.Subject.symlinkTarget(link: "/p/x.so", target: "/t/real.so")
        let writable = try #require(rules.violation(of: Self.file(0o646), for: subject))
        #expect(writable.description
            == "refused (not writable by others): it is a symlink to /t/real.so, which is world-writable (mode 0646), so other users could replace its code; run `chmod o-w /t/real.so`")
        let pipe = try #require(rules.violation(of: FileFacts(kind: .other("a named pipe"), permissions: 0o644, owner: Self.me), for: subject))
        #expect(pipe.description
            == "refused (regular file): it is a symlink to /t/real.so, which is a named pipe, not a regular file; point /p/x.so at a plugin file or remove it")
        let directory = TrustViolation.Subject.targetDirectory(link: "/p/x.so", target: "/t/real.so", directory: "/t")
        let open = try #require(rules.violation(of: Self.directory(0o777), for: directory))
        #expect(open.description
            == "refused (not writable by others): it is a symlink to /t/real.so, whose directory /t is group- and world-writable (mode 0777), so other users could swap the plugin; run `chmod go-w /t`")
    }

    @Test("Things that are not regular files are refused", arguments: [
        (FileFacts.Kind.directory, "a directory"), (.other("a socket"), "a socket"), (.symbolicLink, "a symlink"),
    ])
    func notRegular(kind: FileFacts.Kind, name: String) throws {
        let violation = try #require(rules.violation(of: FileFacts(kind: kind, permissions: 0o755, owner: Self.me), for: .plugin(path: "/p/x.so")))
        #expect(violation.description == "refused (regular file): it is \(name), not a regular file; remove /p/x.so from the plugins directory")
    }

    @Test("A lock file others can write is refused, since it decides what loads")
    func lockFile() throws {
        let violation = try #require(rules.violation(of: Self.file(0o646), for: .lockFile(path: "/p/plugins.lock")))
        #expect(violation.description
            == "refused (not writable by others): the lock file /p/plugins.lock is world-writable (mode 0646), so other users could allow any plugin; run `chmod o-w /p/plugins.lock`")
    }

    /// One step of a walk: `directory` with `permissions`, owned by `owner`,
    /// from which the way takes `entry`, owned by `entryOwner`.
    static func step(
        _ directory: String, _ permissions: UInt32, owner: UInt32 = 0, role: PathWalk.Role = .ancestor, entry: String = "/x", entryOwner: UInt32 = me
    ) -> PathWalk.Step {
        PathWalk.Step(directory: directory, role: role, facts: Self.directory(permissions, owner: owner), entry: entry, entryOwner: entryOwner)
    }

    @Test("An ancestor others may write is refused unless its sticky bit keeps them from replacing the user's or root's entry", arguments: [
        (UInt32(0o1777), UInt32(1000), true),
        (UInt32(0o1777), UInt32(0), true),
        (UInt32(0o1777), UInt32(1001), false),
        (UInt32(0o0777), UInt32(1000), false),
        (UInt32(0o0775), UInt32(1000), false),
        (UInt32(0o0755), UInt32(1001), true),
    ])
    func ancestors(permissions: UInt32, entryOwner: UInt32, passes: Bool) {
        let step = Self.step("/tmp", permissions, entry: "/tmp/me", entryOwner: entryOwner)
        #expect((rules.violation(of: step, to: .plugin) == nil) == passes)
    }

    @Test("A directory holding a symlink of the way, or the file, gets no sticky exception", arguments: [
        PathWalk.Role.link("/tmp/hop.so"), .file,
    ])
    func stickyDoesNotCoverLinksOrFiles(role: PathWalk.Role) {
        #expect(rules.violation(of: Self.step("/tmp", 0o1777, role: role), to: .plugin) != nil)
    }

    @Test("Each directory on the way names itself, what it holds, and the fix")
    func wayMessages() throws {
        let link = try #require(rules.violation(of: Self.step("/srv/open", 0o777, role: .link("/srv/open/hop.so")), to: .plugin))
        #expect(link.description
            == "refused (not writable by others): it is reached through the symlink /srv/open/hop.so, whose directory /srv/open is group- and world-writable (mode 0777), so other users could swap the plugin; run `chmod go-w /srv/open`")
        let ancestor = try #require(rules.violation(of: Self.step("/srv", 0o775), to: .plugin))
        #expect(ancestor.description
            == "refused (not writable by others): its path passes through /srv, which is group-writable (mode 0775), so other users could swap the plugin; run `chmod g-w /srv`")
        let foreign = try #require(rules.violation(of: Self.step("/home/bob", 0o755, owner: 1001), to: .lockFile("/home/bob/p/plugins.lock")))
        #expect(foreign.description
            == "refused (owner): the lock file /home/bob/p/plugins.lock's path passes through /home/bob, which is owned by uid 1001, not by you (uid 1000) or root; move /home/bob/p/plugins.lock to a directory only you or root can write")
        let shared = try #require(rules.violation(of: Self.step("/tmp", 0o1777, entry: "/tmp/p", entryOwner: 1001), to: .plugin))
        #expect(shared.description
            == "refused (owner): its path passes through /tmp, which is shared (mode 1777), and /tmp/p in it is owned by uid 1001, so other users could swap the plugin; move the plugin to a directory only you or root can write")
        let store = try #require(rules.violation(of: Self.step("/c/patchbay", 0o770, role: .file), to: .trustStore("/c/patchbay/trusted-plugins")))
        #expect(store.description
            == "refused (not writable by others): the trust store /c/patchbay/trusted-plugins is in /c/patchbay, which is group-writable (mode 0770), so other users could vouch for any plugin; run `chmod g-w /c/patchbay`")
    }

    @Test("A plugin file over the size limit is refused by its size alone; lock files and directories have no such rule")
    func sizeRule() throws {
        var huge = Self.file(0o755)
        huge.size = 10 << 30
        let violation = try #require(rules.violation(of: huge, for: .plugin(path: "/p/x.so")))
        #expect(violation.description
            == "refused (size): it is 10 GiB, larger than a plugin may be (256 MiB); remove /p/x.so from the plugins directory")
        huge.size = TrustRules.maximumPluginSize
        #expect(rules.violation(of: huge, for: .plugin(path: "/p/x.so")) == nil)
        huge.size = TrustRules.maximumPluginSize + 1
        #expect(rules.violation(of: huge, for: .symlinkTarget(link: "/p/x.so", target: "/t/x.so"))?.check == "size")
        #expect(!TrustRules.Rule.size.applies(to: .lockFile(path: "/p/plugins.lock")))
    }

    @Test("The walk follows every symlink of a chain and names each directory it passes")
    func walk() throws {
        let root = try TemporaryDirectory.make().resolvingSymlinksInPath()
        let real = root.appending(path: "real")
        let middle = root.appending(path: "middle")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: middle, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: real.appending(path: "x.so").path, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: middle.appending(path: "hop.so").path, withDestinationPath: "../real/x.so")
        try FileManager.default.createSymbolicLink(atPath: root.appending(path: "start.so").path, withDestinationPath: middle.appending(path: "hop.so").path)

        let walk = try PathWalk.walk(root.appending(path: "start.so").path)

        #expect(walk.target == real.appending(path: "x.so").path)
        #expect(walk.links == [root.appending(path: "start.so").path, middle.appending(path: "hop.so").path])
        let named = walk.steps.filter { $0.role != .ancestor }.map { "\($0.directory) \($0.role)" }
        #expect(named == [
            "\(root.path) \(PathWalk.Role.link(root.appending(path: "start.so").path))",
            "\(middle.path) \(PathWalk.Role.link(middle.appending(path: "hop.so").path))",
            "\(real.path) \(PathWalk.Role.file)",
        ])
        #expect(walk.steps.first?.directory == "/")
    }

    @Test("The host's location vouches only while its directory is private", arguments: [(mode_t(0o755), true), (mode_t(0o775), false), (mode_t(0o757), false)])
    func bundledLocation(mode: mode_t, vouches: Bool) throws {
        let directory = try TemporaryDirectory.make().resolvingSymlinksInPath()
        let executable = directory.appending(path: "host").path
        #expect(FileManager.default.createFile(atPath: executable, contents: Data()))
        try HostFixtures.chmod(directory.path, mode)
        let violation = BundledLocation.check(executable: executable, rules: TrustRules(currentUser: UInt32(geteuid())))
        #expect((violation == nil) == vouches, "\(String(describing: violation))")
        if !vouches {
            #expect(violation?.description.hasPrefix("refused (not writable by others): the host executable \(executable) is in \(directory.path), which is ") == true)
        }
    }
}
