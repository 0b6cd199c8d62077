#if DEBUG || FUZZING
@testable import PluginHost

/// The lock-file parser, `PluginLock.parse`.
///
/// Input: a lock file's text. The lock file sits in a directory that does
/// not exist, so relative names resolve without touching real files.
let lockFileTarget = FuzzTarget("lock-file", "PluginLock.parse and render; input: a lock file's text") { input throws(PropertyViolation) in
    let text = String(decoding: input.remaining(), as: UTF8.self)
    let path = "/patchbay-fuzz-lock/plugins.lock"
    guard let lock = try? PluginLock.parse(text, path: path) else { return }
    let entries = lockEntries(text)
    for entry in entries {
        let plugin = entry.name.hasPrefix("/") ? entry.name : "/patchbay-fuzz-lock/" + entry.name
        let expected = lock.expectedDigest(for: plugin)
        try expect(expected == entry.digest.lowercased(), "every line of an accepted lock file locks its file to its digest", "line \(entry.line) names \(entry.name.debugDescription) with \(entry.digest), the lock expects \(String(describing: expected))")
    }
    // What `lock-plugins` writes for the same entries reads back the same
    // (for the names it writes: no line break, other control character or backslash).
    let writable = entries.filter { PluginLock.unwritable(name: $0.name) == nil }
    let rendered = PluginLock.render(writable.map { (digest: $0.digest.lowercased(), name: $0.name) })
    guard let again = try? PluginLock.parse(rendered, path: path) else {
        throw PropertyViolation(property: "a rendered lock file parses", detail: rendered.debugDescription)
    }
    for entry in writable {
        let plugin = entry.name.hasPrefix("/") ? entry.name : "/patchbay-fuzz-lock/" + entry.name
        try expect(again.expectedDigest(for: plugin) == entry.digest.lowercased(), "a rendered lock file locks what the original did", "\(entry.name.debugDescription) in \(rendered.debugDescription)")
    }
}

/// The entries of a lock file as `sha256sum -c` reads it: lines end at a
/// newline byte (a carriage return before it is dropped); blank lines and
/// lines starting with `#` are skipped; every other line is 64 hex digits,
/// two characters and a name.
private func lockEntries(_ text: String) -> [(line: Int, digest: String, name: String)] {
    var entries: [(line: Int, digest: String, name: String)] = []
    for (index, raw) in Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
        if line.first == UInt8(ascii: "#") || String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace) { continue }
        let start = line.startIndex
        guard line.count > 66 else { continue }
        entries.append((index + 1, String(decoding: line[start..<start + 64], as: UTF8.self), String(decoding: line[(start + 66)...], as: UTF8.self)))
    }
    return entries
}
#endif
