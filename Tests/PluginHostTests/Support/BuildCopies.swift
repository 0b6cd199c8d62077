import Foundation

/// Copies of what `swift build` made, for tests that run a `host` from
/// somewhere else (an installed copy, a build of their own).
enum BuildCopies {
    /// Copies each named file of the build directory into `directory`.
    ///
    /// An executable must never be open for writing in the test process:
    /// a child that another test starts at that moment inherits the
    /// descriptor, and running the copy then fails with "Text file busy"
    /// for as long as that child lives. So `cp` writes the copies, in a
    /// process of its own, and only its own children could inherit them.
    /// - Parameters:
    ///   - names: File names in the build directory, e.g. `host`, `libBitcoinPlugin.so`.
    ///   - directory: Where the copies go; it must exist.
    static func copy(_ names: [String], to directory: URL) async throws {
        let sources = names.map { CommandRunner.buildDirectory.appending(path: $0).path }
        let output = try await CommandRunner.run(URL(filePath: "/bin/cp"), ["-p"] + sources + [directory.path])
        guard output.status == 0 else { throw CopyFailed(names: names, directory: directory.path, stderr: output.stderr) }
    }

    /// `cp` failed.
    struct CopyFailed: Error, CustomStringConvertible {
        let names: [String]
        let directory: String
        let stderr: String
        var description: String { "cannot copy \(names.joined(separator: ", ")) into \(directory): \(stderr)" }
    }
}
