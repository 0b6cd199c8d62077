import Glibc

/// The user's network grants: plugin files nobody vouched for that may
/// fetch under a URL, each by its SHA-256, while still sandboxed.
///
/// They live beside the trust store, `$XDG_CONFIG_HOME/patchbay/network-grants`,
/// and are read and written under the same rules (`TrustRules`): used only
/// while the file, its directory and every directory above it belong to the
/// user or root and nobody else may write them. One line per file:
///
/// ```
/// # Plugin files you let fetch under a URL: they still run sandboxed.
/// 3f7a…c9e1  https://api.gemini.com/v1  /home/me/prices/plugins/libGeminiPlugin.so
/// ```
///
/// A URL holds no space (``URLPrefix`` refuses one), so the name is the
/// rest of the line after the URL's two spaces.
package struct NetworkGrants: Sendable {
    /// The file's name in `$XDG_CONFIG_HOME/patchbay`.
    package static let fileName = "network-grants"

    /// The file's path.
    package let path: String
    /// What it holds, or why it cannot be used.
    let contents: Contents

    /// The grants as read.
    enum Contents: Sendable {
        /// The grants by canonical plugin path; none when the file does not exist yet.
        case grants([String: NetworkGrant])
        /// It exists but cannot be believed, so it grants nothing.
        case unusable(LockFileError)
    }

    /// The grants' path beside the trust store at `storePath`.
    package static func path(besideTrustStore storePath: String) -> String {
        FilePaths.join(FilePaths.directory(of: storePath), fileName)
    }

    /// Reads the grants at `path` for the user this process runs as.
    package static func read(at path: String) -> NetworkGrants {
        read(at: path, rules: TrustRules(currentUser: UInt32(geteuid())))
    }

    static func read(at path: String, rules: TrustRules) -> NetworkGrants {
        var status = stat()
        if lstat(path, &status) != 0 && errno == ENOENT { return NetworkGrants(path: path, contents: .grants([:])) }
        do throws(LockFileError) {
            let text = try PluginLock.text(at: path, rules: rules, as: .networkGrants)
            return NetworkGrants(path: path, contents: .grants(try parse(text, path: path)))
        } catch {
            return NetworkGrants(path: path, contents: .unusable(error))
        }
    }

    /// The grant the user recorded for the plugin file at `pluginPath`,
    /// whatever its content now; nil when none, or the file cannot be used.
    func grant(for pluginPath: String) -> NetworkGrant? {
        guard case .grants(let grants) = contents, !grants.isEmpty else { return nil }
        return grants[PluginLock.canonical(pluginPath)]
    }

    /// Every grant, by canonical path, sorted by path.
    package var entries: [(path: String, grant: NetworkGrant)] {
        guard case .grants(let grants) = contents else { return [] }
        return grants.map { (path: $0.key, grant: $0.value) }.sorted { $0.path < $1.path }
    }

    /// Why the grants cannot be used, worded with the program's names; nil when they can.
    package func problem(naming names: SettingNames) -> String? {
        guard case .unusable(let error) = contents else { return nil }
        return error.message(naming: names)
    }

    /// Parses the text of the grants.
    static func parse(_ text: String, path: String) throws(LockFileError) -> [String: NetworkGrant] {
        var grants: [String: NetworkGrant] = [:]
        var lineOf: [String: Int] = [:]
        for (index, bytes) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = Array(bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...])
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) || line.first == UInt8(ascii: "#") { continue }
            let number = index + 1
            let separator = [UInt8(ascii: " "), UInt8(ascii: " ")]
            guard line.count > 66, line[0..<64].allSatisfy(PluginLock.isHexDigit), Array(line[64..<66]) == separator,
                let end = (66..<(line.count - 1)).first(where: { Array(line[$0..<$0 + 2]) == separator }), end > 66, end + 2 < line.count,
                line[(end + 2)...].first == UInt8(ascii: "/")
            else {
                throw LockFileError(path: path, role: .networkGrants, .malformed(line: number))
            }
            let name = String(decoding: line[(end + 2)...], as: UTF8.self)
            let key = PluginLock.canonical(name)
            if let earlier = lineOf[key] {
                throw LockFileError(path: path, role: .networkGrants, .duplicate(name: name, lines: (earlier, number)))
            }
            lineOf[key] = number
            grants[key] = NetworkGrant(
                sha256: String(decoding: line[0..<64], as: UTF8.self).lowercased(), url: String(decoding: line[66..<end], as: UTF8.self))
        }
        return grants
    }

    /// The text of grants holding `grants`, by canonical path.
    static func render(_ grants: [String: NetworkGrant]) -> String {
        "# Plugin files you let fetch under a URL, by SHA-256: they still run in sandboxed workers.\n"
            + "# Change it with `host allow` and `host disallow`.\n"
            + grants.sorted { $0.key < $1.key }.map { "\($0.value.sha256)  \($0.value.url)  \($0.key)\n" }.joined()
    }
}
