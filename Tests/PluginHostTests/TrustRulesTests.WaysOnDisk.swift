import Foundation
import Testing

@testable import PluginHost

/// The trust rules on real directories: a way through `..` is judged by the
/// directory it comes back to, and the host's location vouches for bundled
/// plugins only while every directory above the executable is closed to others.
extension TrustRulesTests {
    /// Makes `path` a directory of exactly `mode`, whatever the umask.
    static func directory(_ path: String, mode: mode_t) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard chmod(path, mode) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM) }
    }

    @Test("A way through `..` takes the next entry from the directory it came back to, with that directory's own mode", arguments: [0o1777, 0o777, 0o755])
    func wayThroughDotDot(sharedMode: Int) throws {
        let root = try TemporaryDirectory.make().path
        let shared = root + "/shared"
        try Self.directory(shared, mode: mode_t(sharedMode))
        try Self.directory(shared + "/private", mode: 0o700)
        try Self.directory(shared + "/plugins", mode: 0o700)

        let through = try PathWalk.walk(shared + "/private/../plugins")
        let direct = try PathWalk.walk(shared + "/plugins")

        let last = try #require(through.steps.last)
        #expect(last.directory == shared)
        #expect(last.entry == shared + "/plugins")
        #expect(last.facts.permissions & 0o7777 == UInt32(sharedMode), "the step after `..` carries another directory's mode")
        #expect(last == direct.steps.last)
        // Judged as the direct way is: refused unless only its owner may write the directory it comes back to.
        let rules = TrustRules(currentUser: geteuid())
        #expect((rules.violation(onTheWay: through, to: .plugin) == nil) == (rules.violation(onTheWay: direct, to: .plugin) == nil))
        #expect((rules.violation(onTheWay: through, to: .plugin) == nil) == (sharedMode == 0o755))
    }

    @Test("The host's location vouches only while the executable's directory and every one above it are closed to others", arguments: [
        (ancestor: 0o755, bin: 0o755, vouches: true),
        (ancestor: 0o755, bin: 0o775, vouches: false),
        (ancestor: 0o775, bin: 0o755, vouches: false),
        (ancestor: 0o757, bin: 0o755, vouches: false),
        (ancestor: 0o777, bin: 0o700, vouches: false),
        // Shared like /tmp: others may add entries, but not replace the prefix, which is the user's.
        (ancestor: 0o1777, bin: 0o755, vouches: true),
    ])
    func bundledLocationAncestors(ancestor: Int, bin: Int, vouches: Bool) throws {
        let root = try TemporaryDirectory.make().path
        let open = root + "/above"
        let prefix = open + "/prefix"
        try Self.directory(open, mode: mode_t(ancestor))
        try Self.directory(prefix, mode: 0o755)
        try Self.directory(prefix + "/bin", mode: mode_t(bin))
        try Data().write(to: URL(filePath: prefix + "/bin/host"))

        let violation = BundledLocation.check(executable: prefix + "/bin/host", rules: TrustRules(currentUser: geteuid()))

        #expect((violation == nil) == vouches, "\(violation.map(String.init(describing:)) ?? "no violation")")
        if let violation, ancestor & 0o022 != 0, ancestor & 0o1000 == 0 {
            #expect(violation.description.contains("passes through \(open), which is"), "\(violation)")
        }
    }
}
