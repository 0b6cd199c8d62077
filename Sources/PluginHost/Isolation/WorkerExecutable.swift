import WorkerProtocol

import Glibc

/// Where the host finds `patchbay-worker`: beside its own executable (a
/// build directory), then in `../lib/patchbay/` (the installed layout,
/// `PREFIX/bin/host` and `PREFIX/lib/patchbay/patchbay-worker`).
enum WorkerExecutable {
    /// The worker for the running host, looked up once per process.
    static let located: Result<String, WorkerError> = locate(besideExecutableIn: PluginDiscovery.runningExecutableDirectory)

    /// The first executable `patchbay-worker` in the places a host whose
    /// executable is in `directory` looks.
    /// - Returns: Its path, or a ``WorkerError/Cause/missingExecutable(searched:)``
    ///   naming every place looked in.
    static func locate(besideExecutableIn directory: String) -> Result<String, WorkerError> {
        let places = [
            FilePaths.join(directory, WorkerStartup.executableName),
            FilePaths.join(FilePaths.join(FilePaths.directory(of: directory), "lib/patchbay"), WorkerStartup.executableName),
        ]
        guard let found = places.first(where: { access($0, X_OK) == 0 }) else { return .failure(WorkerError(.loading, .missingExecutable(searched: places))) }
        return .success(found)
    }
}
