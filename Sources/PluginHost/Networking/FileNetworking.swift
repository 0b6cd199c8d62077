import CFileBeneath
import FoundationEssentials
import PluginBoundary
import Glibc

/// Answers `file://` URLs from the file system, for offline runs and
/// fixtures shipped in the repository.
///
/// `file:///data/v2/prices/BTC-USD/spot` reads that file, or `spot.json`
/// beside it; `file:///data/api/v2/ticker/btcusd/`, a path that ends in `/`
/// as some APIs' do, reads `btcusd` or `btcusd.json`. A missing file is a
/// 404, as a server would answer.
///
/// Reads stay beneath a root directory: the kernel resolves the path with
/// `openat2(2)` and `RESOLVE_BENEATH`, so neither `..` nor a symbolic link
/// leads out of it, and only a regular file is read; a device, a named pipe
/// or a socket is refused. A body is capped at the same size as over HTTP.
package struct FileNetworking: HostNetworking {
    /// The directories reads may resolve beneath. A root that is a file
    /// allows that one file.
    let roots: [String]
    /// The most bytes read from one file.
    let maximumBodySize: Int

    /// Creates file-backed networking.
    /// - Parameters:
    ///   - roots: The directories whose files may be read, e.g. the API
    ///     base's; a URL beneath none of them is refused. By default `/`.
    ///   - maximumBodySize: A larger file fails, as a larger HTTP body does.
    package init(roots: [String] = ["/"], maximumBodySize: Int = 1 << 20) {
        self.roots = roots.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.maximumBodySize = maximumBodySize
    }

    /// Reads the file `url` names, or the same path with `.json` appended.
    /// - Parameters:
    ///   - url: A `file://` URL.
    ///   - timeout: Ignored: a local read does not wait on anyone.
    /// - Returns: Status 200 with the file's bytes; status 404 with a
    ///   Coinbase-shaped error body when neither file exists; a failure when
    ///   the file cannot or may not be read.
    package func get(_ url: URL, timeout: Duration) async -> HTTPOutcome {
        switch read(url.path(percentEncoded: false)) {
        case .outcome(let outcome): outcome
        case .refused(let reason): .failure(reason)
        // Unreachable: a file never redirects.
        case .redirect(let status, _): .failure("a file answered with a redirect (\(status))")
        case .transient(let outcome, _): outcome
        }
    }

    /// Reads the file `url` names, as ``get(_:timeout:)`` does, but says
    /// when the read was refused (outside every root, not a regular file).
    /// - Parameters:
    ///   - url: A `file://` URL.
    ///   - timeout: Ignored.
    /// - Returns: The outcome, or why the file may not be read.
    package func hop(_ url: URL, timeout: Duration) async -> HTTPHop {
        read(url.path(percentEncoded: false))
    }

    private func read(_ path: String) -> HTTPHop {
        // The longest root the path is beneath, on a `/` boundary.
        // Bytes, not Characters: "/" and a combining mark after it are one Character.
        let beneath = roots.filter { root in root == "/" || path == root || path.utf8.starts(with: (root + "/").utf8) }
        guard let root = beneath.max(by: { $0.utf8.count < $1.utf8.count }) else {
            if roots.isEmpty { return .refused("the host reads no files for plugins") }
            return .refused("it is not beneath \(roots.joined(separator: " or ")), where the host reads files")
        }
        // A trailing slash names the file without it: an API's `…/btcusd/` is the fixture `…/btcusd.json`.
        var relative = String(decoding: path.utf8.dropFirst(root.utf8.count).drop { $0 == UInt8(ascii: "/") }, as: UTF8.self)
        while relative.hasSuffix("/") { relative.removeLast() }
        var directory = root
        var candidates = [relative, relative + ".json"]
        if relative.isEmpty {
            // The URL names the root itself: read it from its parent, and
            // never its `.json` sibling, which is not beneath it.
            guard root != "/" else { return .refused("it names the directory /, not a file") }
            let slash = root.lastIndex(of: "/") ?? root.startIndex
            directory = slash == root.startIndex ? "/" : String(root[..<slash])
            relative = String(root[root.index(after: slash)...])
            candidates = [relative]
        }
        let directoryDescriptor = file_beneath_open_directory(directory)
        guard directoryDescriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .outcome(Self.notFound(path)) }
            return .outcome(.failure(SystemError(operation: "open", errno: code).sentence(about: directory)))
        }
        defer { close(directoryDescriptor) }
        for candidate in candidates {
            let descriptor = file_beneath_open(directoryDescriptor, candidate)
            guard descriptor >= 0 else {
                switch errno {
                case ENOENT, ENOTDIR: continue
                case EXDEV: return .refused("it leads out of \(root), through '..' or a symbolic link")
                case ELOOP: return .refused("it goes through a symbolic link the host does not follow, beneath \(root)")
                case let code: return .outcome(.failure(SystemError(operation: "read", errno: code).sentence(about: "\(directory)/\(candidate)")))
                }
            }
            defer { close(descriptor) }
            let facts: FileFacts
            do {
                facts = try FileFacts.of(descriptor: descriptor)
            } catch {
                return .outcome(.failure("cannot read \(directory)/\(candidate): \(error)"))
            }
            switch facts.kind {
            case .regular: return .outcome(readAll(descriptor, size: facts.size, name: "\(directory)/\(candidate)"))
            case .directory: continue
            case .symbolicLink: return .refused("it is a symbolic link, not a regular file")
            case .other(let kind): return .refused("it is \(kind), not a regular file")
            }
        }
        return .outcome(Self.notFound(path))
    }

    /// Reads at most ``maximumBodySize`` bytes, failing past it even if the
    /// file grows after `fstat`.
    private func readAll(_ descriptor: Int32, size: Int, name: String) -> HTTPOutcome {
        let tooLarge = HTTPOutcome.failure("response body larger than \(maximumBodySize) bytes")
        guard size <= maximumBodySize else { return tooLarge }
        // One byte more than expected, to see the end of the file (or a larger one).
        var body = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == body.count {
                guard body.count <= maximumBodySize else { break }
                body += [UInt8](repeating: 0, count: min(body.count, maximumBodySize + 1 - body.count))
            }
            let read = body.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress.unsafelyUnwrapped + count, $0.count - count) }
            if read == 0 { break }
            if read < 0 {
                if errno == EINTR { continue }
                return .failure(SystemError(operation: "read", errno: errno).sentence(about: name))
            }
            count += read
        }
        guard count <= maximumBodySize else { return tooLarge }
        return .response(status: 200, body: Array(body[..<count]))
    }

    private static func notFound(_ path: String) -> HTTPOutcome {
        // The files looked for: a trailing slash names the file without it.
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let body = #"{"errors":[{"id":"not_found","message":"no fixture file at \#(path) or \#(path).json"}]}"#
        return .response(status: 404, body: Array(body.utf8))
    }
}
