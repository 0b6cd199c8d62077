import FoundationEssentials
import WorkerProtocol

import Glibc

/// A plugin worker: `patchbay-worker`, started as ``WorkerStartup`` says.
///
/// Its descriptors, set up by `posix_spawn` before it runs any code, are
/// those of ``WorkerStartup``; fds 1 and 2 are the host's stderr, so a
/// plugin's `printf` cannot corrupt the host's output.
///
/// Every other descriptor of the host is close-on-exec, so a worker holds no
/// other worker's pipe open: a worker's end of file is what tells the host
/// it died.
///
/// No worker outlives the host, and nothing a worker starts outlives the
/// worker: each runs in a process group of its own, which the host kills as
/// a whole whenever it stops or reaps the worker, and each asks the kernel
/// for SIGKILL when the host ends (`PR_SET_PDEATHSIG`, with the host's pid in
/// ``WorkerStartup/hostPIDVariable`` to close the race with a host that
/// ends first). Under the full sandbox a worker cannot start a process at all.
struct WorkerProcess: Sendable {
    /// The worker's process id.
    let pid: pid_t
    /// The host's ends of the two pipes.
    let toWorker: Int32
    let fromWorker: Int32

    static let framesIn = WorkerStartup.framesIn
    static let framesOut = WorkerStartup.framesOut
    static let pluginFile = WorkerStartup.pluginFile

    /// How a worker ended.
    enum Exit: Sendable, Equatable {
        case exited(Int32)
        case signal(Int32)
    }

    /// Starts a worker, from ``WorkerSpawnThread``.
    /// - Parameters:
    ///   - executable: The worker executable (``WorkerExecutable``).
    ///   - plugin: The plugin file's descriptor, which becomes the worker's fd 5;
    ///     it must stay open until this returns.
    ///   - skipped: Sandbox layers the worker is not to apply.
    /// - Throws: ``WorkerError`` with the reason when `pipe` or `posix_spawn` fails.
    static func spawn(executable: String, plugin: Int32, skipping skipped: SandboxLayers) async throws(WorkerError) -> WorkerProcess {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<WorkerProcess, WorkerError>, Never>) in
            // One thread runs every spawn, so no other spawn of ours runs
            // between creating these descriptors and marking them close-on-exec.
            let refused = WorkerSpawnThread.shared.run {
                continuation.resume(returning: Result { () throws(WorkerError) in
                    try spawnOnThisThread(executable: executable, plugin: plugin, skipping: skipped)
                })
            }
            if let refused { continuation.resume(returning: .failure(WorkerError(.loading, .spawnFailed(refused)))) }
        }
        return try result.get()
    }

    private static func spawnOnThisThread(executable: String, plugin: Int32, skipping skipped: SandboxLayers) throws(WorkerError) -> WorkerProcess {
        func failure(_ what: String) -> WorkerError {
            WorkerError(.loading, .spawnFailed("\(what): \(String(cString: strerror(errno)))"))
        }
        var down: [Int32] = [-1, -1]
        var up: [Int32] = [-1, -1]
        // Glibc's pipe2 is not visible to Swift; the spawn lock stands in for
        // O_CLOEXEC's atomicity, since only this code starts processes.
        guard pipe(&down) == 0 else { throw failure("pipe") }
        guard pipe(&up) == 0 else {
            down.forEach { close($0) }
            throw failure("pipe")
        }
        for descriptor in down + up {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        // Move the child's ends and the plugin above 5 first, so no dup2
        // below overwrites a descriptor another dup2 still reads.
        let sources = [down[0], up[1], plugin].map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
        defer {
            sources.filter { $0 >= 0 }.forEach { close($0) }
            close(down[0])
            close(up[1])
        }
        guard sources.allSatisfy({ $0 >= 0 }) else {
            close(down[1])
            close(up[0])
            throw failure("dup")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, sources[0], framesIn)
        posix_spawn_file_actions_adddup2(&actions, sources[1], framesOut)
        posix_spawn_file_actions_adddup2(&actions, sources[2], pluginFile)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        // The host ignores SIGPIPE once it has workers (PipeLoop); give the worker the default back.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A group of its own (its id is the worker's pid), so that one kill
        // reaches whatever the worker started.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // The Swift runtime's crash backtracer would take seconds to
        // symbolicate a plugin's crash; the host reports it in one line.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment[WorkerStartup.hostPIDVariable] = "\(getpid())"
        environment[WorkerStartup.skippedLayersVariable] = skipped.isEmpty ? nil : skipped.names
        let argv = [strdup(executable), nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(down[1])
            close(up[0])
            throw WorkerError(.loading, .spawnFailed("cannot run \(executable): \(String(cString: strerror(result)))"))
        }
        return WorkerProcess(pid: pid, toWorker: down[1], fromWorker: up[0])
    }

    /// Sends SIGKILL to the worker and its process group. Harmless when the
    /// worker already exited but was not yet reaped.
    func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        // In case it left the group, where no seccomp filter stopped it.
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the worker to end and reaps it, without blocking a thread:
    /// it polls `waitpid(WNOHANG)` with growing pauses. A worker still alive
    /// after `limit` is killed.
    /// - Returns: How it ended.
    func exit(within limit: Duration = .seconds(5)) async -> Exit {
        let start = ContinuousClock.now
        var pause = Duration.milliseconds(1)
        var killed = false
        while true {
            var info = siginfo_t()
            let polled = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if polled == 0 && info.si_signo == SIGCHLD {
                // Ended, and not reaped yet, so its pid, which is also its
                // group's id, cannot have been reused: kill what it started.
                _ = Glibc.kill(-pid, SIGKILL)
                var status: Int32 = 0
                // Returns at once: the worker has ended.
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return Self.decode(status)
            }
            if polled < 0 && errno != EINTR {
                // Reaped elsewhere or never ours; nothing more to learn.
                return .exited(-1)
            }
            if !killed && ContinuousClock.now - start > limit {
                kill()
                killed = true
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which Swift cannot import as macros.
    static func decode(_ status: Int32) -> Exit {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signal(signal)
    }
}
