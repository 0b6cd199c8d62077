import PluginBoundary

import Glibc

/// Every directory a path passes through on its way to a file, with each
/// symlink on the way followed one hop at a time, so that each of those
/// directories can be checked: whoever may write any of them can change
/// where the path leads.
///
/// `realpath(3)` gives only the end of the way. A symlink chain re-pointed
/// through a world-writable directory, or a plugins directory reached
/// through someone else's folder, still ends at a private file; the walk
/// shows the directories in between.
///
/// The walk reads names with `lstat` and `readlink`; the caller then opens
/// ``target`` with `O_NOFOLLOW`. Once every directory on the way is found
/// private to the user or root, nobody else can change the way in between.
struct PathWalk: Sendable, Equatable {
    /// One directory the path passes through, and what it takes from it.
    struct Step: Sendable, Equatable {
        /// The directory, every symlink before it resolved.
        let directory: String
        /// What the path takes from it.
        let role: Role
        /// The directory's facts, from `lstat` (it is never a symlink here).
        let facts: FileFacts
        /// The entry taken from it: the next directory, a symlink or the file.
        let entry: String
        /// Who owns that entry.
        let entryOwner: UInt32
    }

    /// What a directory gives the path.
    enum Role: Sendable, Equatable {
        /// The next directory on the way.
        case ancestor
        /// A symlink the way follows, by its path in this directory.
        case link(String)
        /// The file at the end of the way.
        case file
    }

    /// The file at the end of the way, every symlink resolved.
    let target: String
    /// The symlinks followed, in order; empty when the path names the file itself.
    let links: [String]
    /// The directories passed through, from the root down, in order.
    let steps: [Step]

    /// The most symlinks one walk follows, as Linux's own path lookup.
    static let maximumLinks = 40

    /// Walks `path` to the file it names.
    /// - Parameter path: Absolute, or relative to the current directory.
    /// - Throws: ``PathWalkError`` when a name on the way is missing or unreadable,
    ///   when the way loops, or when it passes through something that is not a directory.
    /// - Complexity: One `lstat` per component, plus one `readlink` per symlink.
    static func walk(_ path: String) throws(PathWalkError) -> PathWalk {
        var pending = components(of: path)
        var current = path.hasPrefix("/") ? "/" : try workingDirectory()
        var currentFacts = try facts(of: current)
        var steps: [Step] = []
        var links: [String] = []
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == "." { continue }
            if name == ".." {
                // `current` holds no symlink, so its parent is its text's parent.
                current = FilePaths.directory(of: current)
                currentFacts = try facts(of: current)
                continue
            }
            let next = FilePaths.join(current, name)
            let entry = try facts(of: next)
            if entry.kind == .symbolicLink {
                guard links.count < maximumLinks else { throw .tooManyLinks(at: next) }
                steps.append(Step(directory: current, role: .link(next), facts: currentFacts, entry: next, entryOwner: entry.owner))
                links.append(next)
                let destination = try readLink(next)
                pending = components(of: destination) + pending
                if destination.hasPrefix("/") {
                    current = "/"
                    currentFacts = try facts(of: current)
                }
            } else if pending.isEmpty {
                steps.append(Step(directory: current, role: .file, facts: currentFacts, entry: next, entryOwner: entry.owner))
                current = next
            } else {
                guard entry.kind == .directory else { throw .notADirectory(next) }
                steps.append(Step(directory: current, role: .ancestor, facts: currentFacts, entry: next, entryOwner: entry.owner))
                current = next
                currentFacts = entry
            }
        }
        return PathWalk(target: current, links: links, steps: steps)
    }

    /// The way to `name` in the directory this walk reached, as ``walk(_:)``
    /// gives it once that entry exists: the directory becomes the one holding
    /// the file, and the step to it an ancestor's. A file about to be created
    /// (the trust store) is checked by this, so writing it and reading it
    /// apply one rule.
    /// - Throws: ``PathWalkError`` when the end of this walk is not a directory.
    func into(_ name: String) throws(PathWalkError) -> PathWalk {
        let facts = try Self.facts(of: target)
        guard facts.kind == .directory else { throw .notADirectory(target) }
        var steps = steps
        if let last = steps.popLast() {
            let role: Role = last.role == .file ? .ancestor : last.role
            steps.append(Step(directory: last.directory, role: role, facts: last.facts, entry: last.entry, entryOwner: last.entryOwner))
        }
        let file = FilePaths.join(target, name)
        steps.append(Step(directory: target, role: .file, facts: facts, entry: file, entryOwner: facts.owner))
        return PathWalk(target: file, links: links, steps: steps)
    }

    private static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func facts(of path: String) throws(PathWalkError) -> FileFacts {
        do {
            return try FileFacts.of(linkAt: path)
        } catch {
            throw .system(error, at: path)
        }
    }

    private static func readLink(_ path: String) throws(PathWalkError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .system(SystemError(operation: "read the symlink", errno: errno), at: path) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func workingDirectory() throws(PathWalkError) -> String {
        guard let directory = getcwd(nil, 0) else { throw .system(SystemError(operation: "find the current directory", errno: errno), at: ".") }
        defer { free(directory) }
        return String(cString: directory)
    }
}
