/// How the host starts a worker, and everything the worker may rely on when
/// it starts: the one statement of the contract, compiled by both sides.
///
/// **Executable.** ``executableName`` (`patchbay-worker`), an executable of
/// its own that links no argument parser, logging library, Foundation or
/// HTTP client. The host looks for it beside its own executable, then in
/// `../lib/patchbay/` (the installed layout).
///
/// **Arguments.** None: `argv` is the executable's path alone. Nothing
/// secret is ever passed on a command line.
///
/// **Descriptors**, set up before the worker runs any code:
///
/// | fd | what |
/// | -- | ---- |
/// | 0 | `/dev/null` |
/// | 1, 2 | one pipe the host reads: each line is a log line of the plugin |
/// | ``framesIn`` (3) | frames from the host (a pipe) |
/// | ``framesOut`` (4) | frames to the host (a pipe) |
/// | ``pluginFile`` (5) | the plugin file, opened and checked by the host |
///
/// **Environment.** Only what the host puts there, never its own
/// (`WorkerEnvironment` in the host): the locale and time zone, the library
/// path, what the runtime needs, ``skippedLayersVariable`` (sandbox
/// layers turned off, for tests and benchmarks; absent means none) and
/// ``addressSpaceVariable`` (its share of the host's memory budget).
///
/// **Before it runs.** The host starts it in namespaces of its own, a
/// session of its own, with the parent-death signal set (`worker_spawn.h`):
/// it is PID 1 of its PID namespace, and its parent is out of sight.
///
/// **Conversation.** The worker confines itself, on its main thread before
/// any other exists, and sends ``WorkerToHost/sandboxed(_:)`` first. The
/// host then sends ``HostToWorker/load(_:)`` once, and
/// ``HostToWorker/fetch(_:)`` any number of times; the worker sends log
/// lines and `http_get` requests whenever its plugin makes them. When the
/// host closes ``framesIn`` the worker exits at once with ``ExitStatus/done``.
package enum WorkerStartup {
    /// The worker executable's file name.
    package static let executableName = "patchbay-worker"

    /// The worker reads frames from the host here.
    package static let framesIn: Int32 = 3
    /// The worker writes frames to the host here.
    package static let framesOut: Int32 = 4
    /// The checked plugin file.
    package static let pluginFile: Int32 = 5

    /// The variable naming the sandbox layers not to apply, in
    /// ``SandboxLayers/init(naming:)``'s form, e.g. `seccomp,rlimits`.
    package static let skippedLayersVariable = "PATCHBAY_WORKER_SANDBOX_SKIP"

    /// The variable giving the worker's address-space limit (RLIMIT_AS), in
    /// bytes, which the host derives from its memory budget; absent means
    /// the worker's own default.
    package static let addressSpaceVariable = "PATCHBAY_WORKER_ADDRESS_SPACE"

    /// How a worker ends, as the host sees it in the exit status.
    package enum ExitStatus {
        /// The host closed the pipe: done.
        package static let done: Int32 = 0
        /// Run by hand, without the host's pipes (sysexits' `EX_USAGE`).
        package static let notStartedByHost: Int32 = 64
        /// The host's pipe broke, or sent what is not a frame (`EX_DATAERR`).
        package static let badFrame: Int32 = 65
        /// A reply could not be sent (`EX_SOFTWARE`).
        package static let cannotReply: Int32 = 70
    }
}
