import Glibc

/// The directories of the host's `LD_LIBRARY_PATH` a worker gets: an
/// installed host that relies on the variable to find a library still loads
/// its plugins in a worker whose root holds only what it was given.
///
/// Only an existing directory, by its real path, held to the rules of a
/// plugins directory (``TrustRules``): owned by the user or root, not
/// writable by others, nor is any directory on its way. The dynamic linker
/// reads the variable before any sandbox applies, so a directory others can
/// write would let them run code in every worker; such a one, a relative
/// entry and an empty one (the working directory) are left out, of the
/// worker's variable and of its root alike.
enum WorkerLibraryPath {
    /// The directories of `value` a worker may read libraries from, in order, each once.
    static func directories(_ value: String?, rules: TrustRules) -> [String] {
        guard let value else { return [] }
        var kept: [String] = []
        for entry in value.split(separator: ":").map(String.init) where entry.hasPrefix("/") {
            guard let walk = try? PathWalk.walk(entry), rules.violation(onTheWay: walk, to: .plugin) == nil else { continue }
            guard let facts = try? FileFacts.of(path: walk.target), rules.violation(of: facts, for: .directory(path: walk.target)) == nil else { continue }
            if !kept.contains(walk.target) { kept.append(walk.target) }
        }
        return kept
    }

    /// ``directories(_:rules:)`` of the running host's variable, for the current user.
    static func ofHost(_ environment: [String: String]) -> [String] {
        directories(environment["LD_LIBRARY_PATH"], rules: TrustRules(currentUser: UInt32(geteuid())))
    }
}
