import WorkerProtocol

import Glibc

/// Where the host finds `patchbay-worker`: where ``InstalledLayout`` says,
/// beside its own executable (a build directory), then in `../lib/patchbay/`
/// (an installed copy).
enum WorkerExecutable {
    /// The worker for the running host, looked up once per process.
    static let located: Result<String, WorkerError> = locate(in: .running)

    /// The first executable `patchbay-worker` in the places `layout` looks.
    /// - Returns: Its path, or a ``WorkerError/Cause/missingExecutable(searched:)``
    ///   naming every place looked in.
    static func locate(in layout: InstalledLayout) -> Result<String, WorkerError> {
        let places = layout.places(of: WorkerStartup.executableName)
        guard let found = places.first(where: { access($0, X_OK) == 0 }) else { return .failure(WorkerError(.loading, .missingExecutable(searched: places))) }
        return .success(found)
    }
}
