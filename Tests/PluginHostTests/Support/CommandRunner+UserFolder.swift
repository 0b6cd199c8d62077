import Foundation

extension CommandRunner {
    /// The environment of one user working in `folder`: their data, cache
    /// and configuration directories inside it, the same for every run, so
    /// that a run reads the scan cache an earlier run wrote.
    static func userEnvironment(of folder: URL) -> [String: String] {
        let home = folder.appending(path: ".user")
        return ["XDG_DATA_HOME": home.appending(path: "data").path, "XDG_CACHE_HOME": home.appending(path: "cache").path,
                "XDG_CONFIG_HOME": home.appending(path: "config").path]
    }

    /// Runs `host rescan` in `folder` as its user (``userEnvironment(of:)``).
    ///
    /// A fetch of symbols vouched plugins provide scans new files nobody
    /// vouched for only for the next run (issue 34), so a test of what such
    /// plugins do once they are known scans them first, as the user's
    /// earlier run did.
    static func scanned(_ folder: URL, environment: [String: String] = [:]) async throws {
        let home = userEnvironment(of: folder)
        for directory in home.values { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        _ = try await host(["rescan"], environment: home.merging(environment) { $1 }, in: folder)
    }

    /// Runs `host` in `folder` as its user (``userEnvironment(of:)``).
    static func host(_ arguments: [String], asUserOf folder: URL, environment: [String: String] = [:]) async throws -> Output {
        try await host(arguments, environment: userEnvironment(of: folder).merging(environment) { $1 }, in: folder)
    }
}
