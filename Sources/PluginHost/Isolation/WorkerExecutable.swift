import WorkerProtocol

import Glibc

/// Where the host finds `patchbay-worker`: where ``InstalledLayout`` says,
/// beside its own executable (a build directory), then in `../lib/patchbay/`
/// (an installed copy); and whether it may run it.
///
/// The worker runs every plugin nobody vouched for, and starts before any
/// sandbox applies, so whoever could replace it could run their code as the
/// user for every such plugin. It is held to the rules of `libHostHTTP.so`
/// and of plugin files (``TrustRules``): a regular file owned by the user or
/// root, not writable by others, nor is its directory or any directory
/// above it (``PathWalk``). One that fails is never started.
enum WorkerExecutable {
    /// The worker for the running host, looked up, opened and checked once per process.
    static let located: Result<WorkerFile, WorkerError> = locate(in: .running).flatMap { path in
        check(path, rules: TrustRules(currentUser: UInt32(geteuid())))
    }

    /// The first executable `patchbay-worker` in the places `layout` looks.
    /// - Returns: Its path, or a ``WorkerError/Cause/missingExecutable(searched:)``
    ///   naming every place looked in.
    static func locate(in layout: InstalledLayout) -> Result<String, WorkerError> {
        let places = layout.places(of: WorkerStartup.executableName)
        guard let found = places.first(where: { access($0, X_OK) == 0 }) else { return .failure(WorkerError(.loading, .missingExecutable(searched: places))) }
        return .success(found)
    }

    /// The worker at `path`, opened, when it passes `rules`, ancestors
    /// included; else a ``WorkerError/Cause/untrustedExecutable(_:)`` naming
    /// the first rule it breaks. The file's own facts are read from the
    /// descriptor that every start then runs, so the file checked is the file run.
    static func check(_ path: String, rules: TrustRules) -> Result<WorkerFile, WorkerError> {
        let guarded = TrustViolation.Guarded.workerExecutable(path)
        func refused(_ violation: TrustViolation) -> Result<WorkerFile, WorkerError> {
            .failure(WorkerError(.loading, .untrustedExecutable(violation)))
        }
        let walk: PathWalk
        do throws(PathWalkError) {
            walk = try PathWalk.walk(path)
        } catch {
            return refused(TrustViolation(.workerExecutable(path: path), .unreachable(path: error.path, error: error.error)))
        }
        if let violation = rules.violation(onTheWay: walk, to: guarded) { return refused(violation) }
        guard let file = WorkerFile.open(walk.target), let facts = try? FileFacts.of(descriptor: file.descriptor) else {
            return refused(TrustViolation(.workerExecutable(path: path), .unreachable(path: walk.target, error: nil)))
        }
        if let violation = rules.violation(of: facts, for: .workerExecutable(path: walk.target)) { return refused(violation) }
        return .success(file)
    }
}
