// NB: the parsers under test are internal to PluginHost; a debug build (and
// the fuzz build, which passes -enable-testing) can reach them. A release
// build without testing leaves this target out (see FuzzTarget+All.swift).
#if DEBUG || FUZZING
import FoundationEssentials
@testable import PluginHost

/// The URL policy a plugin's `http_get` meets: `StrictURL`, `URLPrefix`,
/// `URLPolicy.check` and `checkRedirect`.
///
/// Input: three lines: a prefix to grant, the URL a plugin asks for, and a
/// `Location` that URL redirects to (optional).
let urlPolicyTarget = FuzzTarget("url-policy", "URLPrefix, URLPolicy.check and checkRedirect; input: prefix \\n URL \\n Location") { input throws(PropertyViolation) in
    let prefixText = input.lineText()
    let candidate = input.lineText()
    let location = input.isAtEnd ? nil : input.lineText()

    if let url = try? StrictURL(candidate) { try rereads(url) }
    guard let prefix = try? URLPrefix(prefixText) else { return }
    let shown = try? URLPrefix(prefix.description)
    try expect(shown == prefix, "a prefix reads back as it is shown", "\(prefixText.debugDescription) is shown as \(prefix.description.debugDescription)")

    let policy = URLPolicy(allowing: [prefix])
    guard let accepted = try? policy.check(candidate) else { return }
    try underPrefix(accepted, prefix, asked: candidate)
    guard let location, let next = try? policy.checkRedirect(to: location, from: accepted, asked: candidate) else { return }
    try underPrefix(next, prefix, asked: "\(candidate) redirected to \(location)")
}

/// What the host fetches reads back as the very URL it checked.
private func rereads(_ url: StrictURL) throws(PropertyViolation) {
    let again = try? StrictURL(url.text)
    try expect(again == url, "a URL the host reads reads back the same from its text", "\(url.text.debugDescription) reads back as \(String(describing: again))")
}

/// An accepted URL is under its prefix, reads back the same, and means the
/// same to Foundation, which the networking hands it to.
private func underPrefix(_ url: StrictURL, _ prefix: URLPrefix, asked: String) throws(PropertyViolation) {
    try rereads(url)
    try expect(prefix.admits(url), "an accepted URL is under the prefix that admitted it", "\(asked.debugDescription) became \(url.text.debugDescription), not under \(prefix)")
    // The networking gets `URL(string: url.text)`; whatever it reads there
    // must be what was checked. Foundation refusing it fails closed.
    guard let foundation = URL(string: url.text) else { return }
    if url.scheme == "file" {
        let path = "/" + url.segments.joined(separator: "/")
        let read = foundation.path(percentEncoded: false)
        try expect(read == path, "Foundation reads the file path the policy checked", "\(url.text.debugDescription): checked \(path.debugDescription), Foundation reads \(read.debugDescription)")
        guard let root = prefix.filePath else { return }
        // Compared as bytes: as Characters, "/" and a combining mark after it are one,
        // and "/srv/prices/\u{2DF7}" would not start with "/srv/prices/".
        let directory = root.utf8.last == UInt8(ascii: "/") ? root : root + "/"
        try expect(read == root || read.utf8.starts(with: directory.utf8), "a file URL's path is beneath its prefix's directory", "\(read.debugDescription) is not beneath \(root.debugDescription)")
    } else {
        let host = foundation.host(percentEncoded: true).map { $0.hasPrefix("[") ? $0 : ($0.contains(":") ? "[\($0)]" : $0) }?.lowercased()
        try expect(host == url.host, "Foundation reads the host the policy checked", "\(url.text.debugDescription): checked \(url.host.debugDescription), Foundation reads \(String(describing: host))")
        try expect(foundation.port == url.port, "Foundation reads the port the policy checked", "\(url.text.debugDescription): checked \(String(describing: url.port)), Foundation reads \(String(describing: foundation.port))")
        try expect(foundation.scheme?.lowercased() == url.scheme, "Foundation reads the scheme the policy checked", "\(url.text.debugDescription)")
    }
}
#endif
