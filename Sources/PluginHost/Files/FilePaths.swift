import PluginBoundary

import Glibc

// Path text operations the host needs. FoundationEssentials has no NSString
// path API, and the host stays off full Foundation: loading it and its ICU
// data would more than double the time a short command takes to start.
enum FilePaths {
    /// `name` inside `directory`; an empty directory means the current one.
    static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The folder part of `path`: "." for a bare name, "/" for a file at the root.
    static func directory(of path: String) -> String {
        // On UTF-8 bytes: a warm listing calls this once per plugin, and
        // counting Characters made it quadratic in the path's length.
        let slash = UInt8(ascii: "/")
        var trimmed = path.utf8[...]
        while trimmed.count > 1, trimmed.last == slash { trimmed = trimmed.dropLast() }
        guard let index = trimmed.lastIndex(of: slash) else { return "." }
        let parent = trimmed[..<index]
        return parent.isEmpty ? "/" : String(Substring(parent))
    }

    /// The last part of `path`: "b.so" for "a/b.so".
    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The names in a directory, without "." and "..", in no order.
    /// - Throws: The `errno` of a failed `opendir`.
    static func names(in directory: String) throws(SystemError) -> [String] {
        guard let stream = opendir(directory) else { throw SystemError(operation: "read", errno: errno) }
        defer { closedir(stream) }
        return names(of: stream)
    }

    /// The names an open directory stream has left, without "." and "..", in no order.
    static func names(of stream: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(stream) {
            // NB: read in place; copying `d_name` copies 256 bytes, past a short record
            // at the end of readdir's buffer (Foundation's Process.run crashes so, swift-corelibs-foundation#5472).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `path` with every symlink and `..` resolved, or `path` itself when it
    /// cannot be resolved (a dangling symlink, say).
    static func resolved(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
